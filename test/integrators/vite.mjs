// The Vite row of the integrator matrix: `vite build` of a page that imports convo-sdk (apps/vite), served by
// Vite's preview server and loaded in headless Chromium (Debian's, driven by playwright-core). The page
// streams a turn from the in-process mock, approves its tool and gets a typed 404; the row asserts on what
// it shows. Without Chromium the row fails (CI installs it): nothing is skipped.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { CHROMIUM, launchChromium } from '../browser/chromium.mjs';
import { mustRun, startMock } from '../runtimes/harness.mjs';

const PAGE_MS = 30_000;

/** What the page must show; each entry names what was wrong. */
function problems(result) {
  const wrong = [];
  if (result.error) return [`the page failed: ${result.error}`];
  if (result.status !== 'completed') wrong.push(`turn status ${result.status}`);
  if (JSON.stringify(result.asked) !== '["search@github"]') wrong.push(`approval asked ${result.asked}`);
  if (!result.called?.includes('search@github')) wrong.push(`tools called ${result.called}`);
  if (!(result.updates >= 5)) wrong.push(`${result.updates} text updates`);
  if (!result.shown) wrong.push("the text shown is not the turn's content");
  if (!result.notFound || result.name !== 'NotFoundError' || result.code !== 'api_v1_not_found') {
    wrong.push(`the 404 was ${result.name} (NotFoundError: ${result.notFound}, code ${result.code})`);
  }
  return wrong;
}

/** Builds the app in `dir`, serves it and checks the page in Chromium; resolves the row's summary. */
export async function viteRow(dir) {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`no Chromium at ${CHROMIUM}: apt-get install -y chromium (or set CHROMIUM_PATH)`);
  }
  const vite = ['node_modules/vite/bin/vite.js', 'build', '--logLevel', 'warn'];
  const build = await mustRun(process.execPath, vite, { cwd: dir, timeoutMs: 120_000 });
  // Vite notes each Node builtin it leaves out of a browser bundle: convo-sdk/mock's startMockServer imports
  // them lazily (never in a page), so they are shown, not failed on.
  const notes = `${build.stdout}${build.stderr}`.matchAll(/Module "([^"]+)" has been externalized/g);
  const externalized = [...new Set(Array.from(notes, (match) => match[1]))];
  const assets = readdirSync(join(dir, 'dist', 'assets'));
  if (!assets.some((file) => file.endsWith('.js'))) throw new Error(`vite build wrote no script: ${assets}`);
  // The harness starts a script that takes --host/--port and prints its URL: Vite's preview server here.
  const site = await startMock(dir, [], { cli: join(dir, 'preview.mjs') });
  let chromium;
  try {
    chromium = await launchChromium({ width: 800, height: 500 });
    const { page } = chromium;
    const logs = [];
    page.on('pageerror', (error) => logs.push(`pageerror: ${error.message}`));
    page.on('console', (message) => logs.push(`console.${message.type()}: ${message.text()}`));
    await page.goto(`${site.url}/`, { timeout: PAGE_MS });
    await page.waitForSelector('body[data-done]', { timeout: PAGE_MS }).catch(() => {
      throw new Error(`the page did not finish within ${PAGE_MS} ms\n${logs.join('\n')}`);
    });
    const result = JSON.parse((await page.textContent('#result')) || '{}');
    const wrong = problems(result);
    if (wrong.length) throw new Error([...wrong, ...logs].join('\n'));
    const browser = chromium.context.browser()?.version() ?? '';
    const notes = externalized.length
      ? `; the build left out ${externalized.join(', ')} (lazy, Node only)`
      : '';
    return (
      `Chromium ${browser}: turn completed with ${result.updates} text updates, tool approved and called, ` +
      `typed 404${notes}`
    );
  } finally {
    await chromium?.close();
    await site.stop();
  }
}
