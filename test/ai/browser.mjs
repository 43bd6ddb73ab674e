// `npm run test:ai-browser`: examples/ai-chat, a React app on the AI SDK's `useChat`, in headless Chromium
// (Debian's /usr/bin/chromium, driven by playwright-core). A fresh project installs the packed package
// with the newest `ai` 7, `@ai-sdk/react` 4, React and Vite 8, builds the example with Vite, and serves it
// from the example's own server (server.ts). Against the package's `convo-mock`, both ways the example
// offers: `ConvoChatTransport` in the page (cross-origin to the mock), and `useChat`'s default transport
// through the server route. Each: streamed text equal to the saved turn, a tool approval clicked and the
// same message continued, and Stop cancelling the turn on the service. Skips (exit 0) without Chromium.
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { launchChromium, skipWithoutChromium } from '../browser/chromium.mjs';
import { duration, installInto, mustRun, pack, root, startMock } from '../runtimes/harness.mjs';

const TOKEN = 'ai-chat-token';
const example = join(root, 'examples', 'ai-chat');
const DEPS = ['ai@^7', '@ai-sdk/react@^4', 'react@^19', 'react-dom@^19', 'vite@^8', '@vitejs/plugin-react'];

skipWithoutChromium('ai-browser');

const started = performance.now();
const results = [];
const logs = [];
let project;
let mock;
let server;
let chromium;
try {
  const tarballs = mkdtempSync(join(tmpdir(), 'convo-sdk-ai-pack-'));
  try {
    project = await installInto('convo-sdk-ai-chat-', [join(tarballs, await pack(tarballs)), ...DEPS]);
  } finally {
    rmSync(tarballs, { recursive: true, force: true });
  }
  console.log(`installed the packed package with ${DEPS.join(' ')} in ${duration(project.ms)}`);
  for (const file of ['index.html', 'vite.config.ts', 'server.ts', 'src']) {
    cpSync(join(example, file), join(project.dir, file), { recursive: true });
  }
  mock = await startMock(project.dir, ['--token', TOKEN]);
  // The direct mode's service and token are build-time values, never in the page's URL.
  await mustRun(
    process.execPath,
    [join('node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn'],
    {
      cwd: project.dir,
      env: { ...process.env, VITE_CONVO_BASE_URL: mock.url, VITE_CONVO_TOKEN: TOKEN },
      timeoutMs: 120_000,
    },
  );
  const { startServer } = await import(pathToFileURL(join(project.dir, 'server.ts')).href);
  server = await startServer({ baseUrl: mock.url, token: TOKEN });
  chromium = await launchChromium({ width: 900, height: 700 });
  const { page } = chromium;
  page.on('console', (message) => logs.push(`console.${message.type()}: ${message.text()}`));
  page.on('pageerror', (error) => logs.push(`pageerror: ${error.message}`));

  for (const mode of ['direct', 'route']) {
    await page.goto(`${server.url}/?mode=${mode}`, { timeout: 15_000 });
    await page.waitForSelector('body[data-chat]', { timeout: 15_000 });
    const chatId = await page.evaluate(() => document.body.dataset.chat);
    const saved = async (turnId) => {
      const response = await fetch(`${mock.url}/api/v1/chats/${chatId}/messages?size=100`, {
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      const listing = await response.json();
      return listing.data.find((message) => String(message.id) === String(turnId));
    };
    const assistant = (n) => page.locator('article[data-role="assistant"]').nth(n);
    const send = async (text) => {
      await page.fill('#prompt', text);
      await page.click('#send');
    };
    const step = async (name, body) => {
      try {
        await body();
        results.push([`${mode}: ${name}`, undefined]);
      } catch (error) {
        results.push([`${mode}: ${name}`, error?.message ?? String(error)]);
      }
    };

    await step('streamed text equals the saved turn', async () => {
      const seen = new Set();
      await send('[[mock:words n=12]] [[mock:slow ms=40]] hello');
      const first = assistant(0);
      await first.waitFor({ timeout: 10_000 });
      const end = Date.now() + 15_000;
      while ((await first.getAttribute('data-status')) !== 'completed') {
        if (Date.now() > end) throw new Error('the turn did not complete within 15 s');
        seen.add(await first.locator('.text').textContent());
        await page.waitForTimeout(20);
      }
      const turn = await saved(await first.getAttribute('data-turn'));
      const shown = await first.locator('.text').textContent();
      if (shown !== turn?.content)
        throw new Error(`shows ${JSON.stringify(shown)}, saved ${JSON.stringify(turn?.content)}`);
      if (seen.size < 3) throw new Error(`only ${seen.size} states of the text were seen: not streamed`);
    });

    await step('a tool approval clicked continues the same message', async () => {
      await send('[[mock:tool_approval]] find the report');
      const message = assistant(1);
      await message.locator('button.approve').click({ timeout: 10_000 });
      await page.waitForSelector('article[data-role="assistant"]:nth-of-type(4)[data-status="completed"]', {
        timeout: 15_000,
      });
      const count = await page.locator('article[data-role="assistant"]').count();
      if (count !== 2) throw new Error(`${count} assistant messages, not 2`);
      const state = await message.locator('.tool').getAttribute('data-state');
      if (state !== 'output-available') throw new Error(`the tool part is ${state}`);
      const turn = await saved(await message.getAttribute('data-turn'));
      if (!turn?.steps.some((s) => s.tool_calls?.some((call) => call.name === 'search')))
        throw new Error('the saved turn ran no search tool');
      if ((await message.locator('.text').textContent()) !== turn.content)
        throw new Error('text is not the saved turn');
    });

    await step('Stop cancels the turn on the service', async () => {
      await send('[[mock:hang]]');
      const message = assistant(2);
      await page.waitForSelector('article[data-role="assistant"]:nth-of-type(6)[data-turn]', {
        state: 'attached',
        timeout: 10_000,
      });
      const turnId = await message.getAttribute('data-turn');
      await page.click('#stop');
      const end = Date.now() + 10_000;
      for (;;) {
        const turn = await saved(turnId);
        if (turn?.status === 'cancelled') break;
        if (Date.now() > end) throw new Error(`the turn is ${turn?.status}, not cancelled`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await page.waitForSelector('#status:text("ready")', { timeout: 5_000 });
    });
  }
  mkdirSync(join(root, 'test-results'), { recursive: true });
  await page.screenshot({ path: join(root, 'test-results', 'ai-chat.png'), fullPage: true, timeout: 10_000 });
} catch (error) {
  results.push(['setup', error?.stack ?? String(error)]);
} finally {
  await chromium?.close().catch((error) => results.push(['closing Chromium', error.message]));
  await server?.close();
  await mock?.stop();
  project?.remove();
}

const failed = results.filter(([, problem]) => problem !== undefined);
for (const [name, problem] of results)
  console.log(`${problem === undefined ? 'PASS' : 'FAIL'} ${name}${problem ? `\n       | ${problem}` : ''}`);
if (failed.length > 0) for (const line of logs.slice(-20)) console.log(`       | ${line}`);
console.log(
  `ai-browser took ${duration(Math.round(performance.now() - started))}; screenshot: ${relative(root, join(root, 'test-results', 'ai-chat.png'))}`,
);
console.log(`ai-browser: ${results.length - failed.length} passed, ${failed.length} failed`);
if (failed.length > 0) process.exitCode = 1;
