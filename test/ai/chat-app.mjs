// Shared by the browser runs of the chat examples (browser.mjs: examples/ai-chat, next.mjs:
// examples/ai-chat-next): the packed package installed with the app's dependencies, the page as a user
// drives it (both examples render the same prompt, buttons and messages), the steps and the report.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { skipWithoutChromium } from '../browser/chromium.mjs';
import { duration, installInto, pack, root } from '../runtimes/harness.mjs';

/** Packs the package and installs it with `deps` into a new project named from `prefix`; resolves `installInto`'s. */
export async function installPackedWith(prefix, deps) {
  const tarballs = mkdtempSync(join(tmpdir(), `${prefix}pack-`));
  let project;
  try {
    project = await installInto(prefix, [join(tarballs, await pack(tarballs)), ...deps]);
  } finally {
    rmSync(tarballs, { recursive: true, force: true });
  }
  console.log(`installed the packed package with ${deps.join(' ')} in ${duration(project.ms)}`);
  return project;
}

/** Collects the page's console lines and errors into `logs`, shown when a step fails. */
export function recordPage(page, logs) {
  page.on('console', (message) => logs.push(`console.${message.type()}: ${message.text()}`));
  page.on('pageerror', (error) => logs.push(`pageerror: ${error.message}`));
}

/**
 * The chat `chatId` in `page` against the mock at `mockUrl` (as `token`): its turns as the service saved
 * them, the assistant messages shown, and what a user does.
 */
export function chatPage(page, { mockUrl, token, chatId }) {
  const listing = async () => {
    const response = await fetch(`${mockUrl}/api/v1/chats/${chatId}/messages?size=100`, {
      headers: { authorization: `Bearer ${token}` },
    });
    return (await response.json()).data;
  };
  const saved = async (turnId) => (await listing()).find((turn) => String(turn.id) === String(turnId));
  const assistants = () => page.locator('article[data-role="assistant"]');
  const send = async (text) => {
    await page.fill('#prompt', text);
    await page.click('#send');
  };
  /** Waits for `message` to complete, collecting the states of its text on the way. */
  const completed = async (message, seen = new Set(), ms = 20_000) => {
    const end = Date.now() + ms;
    while ((await message.getAttribute('data-status')) !== 'completed') {
      if (Date.now() > end) throw new Error(`the turn did not complete within ${ms / 1000} s`);
      seen.add(await message.locator('.text').textContent());
      await page.waitForTimeout(20);
    }
    return seen;
  };
  /** Fails unless `message` shows the text its turn was saved with; resolves the saved turn. */
  const sameAsSaved = async (message) => {
    const turn = await saved(await message.getAttribute('data-turn'));
    const shown = await message.locator('.text').textContent();
    if (shown !== turn?.content)
      throw new Error(`shows ${JSON.stringify(shown)}, saved ${JSON.stringify(turn?.content)}`);
    return turn;
  };
  /** Waits until the chat's last turn on the service is cancelled. */
  const cancelledOnService = async (ms = 10_000) => {
    const end = Date.now() + ms;
    while ((await listing()).at(-1)?.status !== 'cancelled') {
      if (Date.now() > end) throw new Error(`the turn is ${(await listing()).at(-1)?.status}, not cancelled`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  return { listing, saved, assistants, send, completed, sameAsSaved, cancelledOnService };
}

/** A step runner: each step's name (after `prefix`) and its failure, if any, into `results`. */
export function stepper(results, prefix = '') {
  return async (name, body) => {
    try {
      await body();
      results.push([`${prefix}${name}`, undefined]);
    } catch (error) {
      results.push([`${prefix}${name}`, error?.message ?? String(error)]);
    }
  };
}

/** The screenshot of `page` as test-results/`file`. */
export async function screenshot(page, file) {
  mkdirSync(join(root, 'test-results'), { recursive: true });
  await page.screenshot({ path: join(root, 'test-results', file), fullPage: true, timeout: 10_000 });
}

/**
 * Runs the browser test `name` of a chat example (skipped without Chromium): `body` sets the app up and runs
 * its steps into `results`; `closing(what, close)` names what to close once it ends, the last opened first;
 * `onFailure(more)` adds `more()` to the report of a failure. A failure of the setup is a result of its own.
 */
export async function runChatApp(name, file, body) {
  skipWithoutChromium(name);
  const started = performance.now();
  const results = [];
  const logs = [];
  const closers = [];
  let more = () => '';
  try {
    await body({
      results,
      logs,
      closing: (what, close) => closers.unshift([what, close]),
      onFailure: (show) => {
        more = show;
      },
    });
  } catch (error) {
    results.push(['setup', error?.stack ?? String(error)]);
  } finally {
    for (const [what, close] of closers)
      await Promise.resolve()
        .then(close)
        .catch((error) => results.push([`closing ${what}`, error?.message ?? String(error)]));
  }
  report(name, { results, logs, started, file, more });
}

/**
 * Prints each result, the page's last log lines (and `more()`'s) when one failed, the time since `started`
 * and the count line `name: N passed, M failed`; a failure sets the exit code.
 */
function report(name, { results, logs, started, file, more = () => '' }) {
  const failed = results.filter(([, problem]) => problem !== undefined);
  for (const [step, problem] of results)
    console.log(
      `${problem === undefined ? 'PASS' : 'FAIL'} ${step}${problem ? `\n       | ${problem}` : ''}`,
    );
  if (failed.length > 0) {
    for (const line of logs.slice(-20)) console.log(`       | ${line}`);
    const extra = more();
    if (extra) console.log(extra);
  }
  console.log(
    `${name} took ${duration(Math.round(performance.now() - started))}; screenshot: ${relative(root, join(root, 'test-results', file))}`,
  );
  console.log(`${name}: ${results.length - failed.length} passed, ${failed.length} failed`);
  if (failed.length > 0) process.exitCode = 1;
}
