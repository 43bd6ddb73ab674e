// `npm run test:ai-browser`: examples/ai-chat, a React app on the AI SDK's `useChat`, in headless Chromium
// (Debian's /usr/bin/chromium, driven by playwright-core). A fresh project installs the packed package
// with the newest `ai` 7, `@ai-sdk/react` 4, React and Vite 8, builds the example with Vite, and serves it
// from the example's own server (server.ts). Against the package's `convo-mock`, both ways the example
// offers: `ConvoChatTransport` in the page (cross-origin to the mock), and `useChat`'s default transport
// through the server route. Each: streamed text equal to the saved turn, a tool approval clicked and the
// same message continued, and Stop cancelling the turn on the service. Skips (exit 0) without Chromium.
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { launchChromium } from '../browser/chromium.mjs';
import { mustRun, root, startMock } from '../runtimes/harness.mjs';
import { chatPage, installPackedWith, recordPage, runChatApp, screenshot, stepper } from './chat-app.mjs';

const TOKEN = 'ai-chat-token';
const example = join(root, 'examples', 'ai-chat');
const DEPS = ['ai@^7', '@ai-sdk/react@^4', 'react@^19', 'react-dom@^19', 'vite@^8', '@vitejs/plugin-react'];

await runChatApp('ai-browser', 'ai-chat.png', async ({ results, logs, closing }) => {
  const project = await installPackedWith('convo-sdk-ai-chat-', DEPS);
  closing('the project', () => project.remove());
  for (const file of ['index.html', 'vite.config.ts', 'server.ts', 'src']) {
    cpSync(join(example, file), join(project.dir, file), { recursive: true });
  }
  const mock = await startMock(project.dir, ['--token', TOKEN]);
  closing('the mock', () => mock.stop());
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
  const server = await startServer({ baseUrl: mock.url, token: TOKEN });
  closing('the server', () => server.close());
  const chromium = await launchChromium({ width: 900, height: 700 });
  closing('Chromium', () => chromium.close());
  const { page } = chromium;
  recordPage(page, logs);

  for (const mode of ['direct', 'route']) {
    await page.goto(`${server.url}/?mode=${mode}`, { timeout: 15_000 });
    await page.waitForSelector('body[data-chat]', { timeout: 15_000 });
    const chatId = await page.evaluate(() => document.body.dataset.chat);
    const { assistants, send, completed, sameAsSaved, cancelledOnService } = chatPage(page, {
      mockUrl: mock.url,
      token: TOKEN,
      chatId,
    });
    const step = stepper(results, `${mode}: `);

    await step('streamed text equals the saved turn', async () => {
      await send('[[mock:words n=12]] [[mock:slow ms=40]] hello');
      const first = assistants().nth(0);
      await first.waitFor({ timeout: 10_000 });
      const seen = await completed(first, new Set(), 15_000);
      await sameAsSaved(first);
      if (seen.size < 3) throw new Error(`only ${seen.size} states of the text were seen: not streamed`);
    });

    await step('a tool approval clicked continues the same message', async () => {
      await send('[[mock:tool_approval]] find the report');
      const message = assistants().nth(1);
      await message.locator('button.approve').click({ timeout: 10_000 });
      await completed(message, new Set(), 15_000);
      const count = await assistants().count();
      if (count !== 2) throw new Error(`${count} assistant messages, not 2`);
      const state = await message.locator('.tool').getAttribute('data-state');
      if (state !== 'output-available') throw new Error(`the tool part is ${state}`);
      const turn = await sameAsSaved(message);
      if (!turn.steps.some((s) => s.tool_calls?.some((call) => call.name === 'search')))
        throw new Error('the saved turn ran no search tool');
    });

    await step('Stop cancels the turn on the service', async () => {
      await send('[[mock:hang]]');
      // The turn started: its message carries the turn's id.
      await page
        .locator('article[data-role="assistant"][data-turn]')
        .nth(2)
        .waitFor({ state: 'attached', timeout: 10_000 });
      await page.click('#stop');
      await cancelledOnService();
      await page.waitForSelector('#status:text("ready")', { timeout: 5_000 });
    });
  }
  await screenshot(page, 'ai-chat.png');
});
