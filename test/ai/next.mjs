// `npm run test:next`: examples/ai-chat-next, a Next.js App Router app (createChatRoute under
// app/api/chat, a page on useChat with ConvoRouteTransport), built with `next build` from the packed
// package and served by `next start`, driven in headless Chromium (Debian's /usr/bin/chromium) against the
// package's convo-mock: streamed text equal to the saved turn, a tool approval, Stop cancelling the turn
// (the next message accepted), a reload mid-turn that shows the saved conversation and resumes the running
// turn live to its saved text, a reload while a turn goes on after a tool approval, and Redis SIGKILLed and
// restarted mid-turn. The app is built as a fresh Next.js app would be: the tsconfig `next build` writes
// (`strict: false`) and its own type check on, without the service's environment (no CONVO_BASE_URL, no
// token), as a CI build does; the route shares a real Redis (Debian's redis-server) through REDIS_URL.
// Skips (exit 0) without Chromium; without redis-server outside CI, runs on one process's memory.

import { spawn, spawnSync } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { launchChromium } from '../browser/chromium.mjs';
import { duration, mustRun, root, startMock, tail } from '../runtimes/harness.mjs';
import { chatPage, installPackedWith, recordPage, runChatApp, screenshot, stepper } from './chat-app.mjs';

const TOKEN = 'next-chat-token';
const example = join(root, 'examples', 'ai-chat-next');
const DEPS = [
  'next@^16',
  'react@^19',
  'react-dom@^19',
  'ai@^7',
  '@ai-sdk/react@^4',
  'typescript@~6.0.3',
  '@types/react@^19',
  '@types/node@^24',
  'redis@^6',
  'resumable-stream@^2',
];
const hasRedis = spawnSync('redis-server', ['--version']).status === 0;
if (!hasRedis && process.env.CI === 'true') throw new Error('redis-server is required in CI');

/** A free loopback port for `next start`. */
async function freePort() {
  const probe = createServer();
  await new Promise((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** redis-server on `port`, persisted as a production Redis is; resolves once it is ready, with `kill`. */
async function startRedis(port, dir) {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'yes', '--dir', dir],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`redis-server did not start\n${tail(output)}`)), 10_000);
    child.stdout.on('data', (chunk) => {
      output += chunk;
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', () => reject(new Error(`redis-server exited\n${tail(output)}`)));
  });
  return {
    kill: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', resolve);
        child.kill('SIGKILL');
      }),
  };
}

/** `next start` on `port`; resolves once it answers, with `stop`. */
async function startNext(dir, port, env) {
  const child = spawn(
    process.execPath,
    [join('node_modules', 'next', 'dist', 'bin', 'next'), 'start', '-H', '127.0.0.1', '-p', String(port)],
    { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr.on('data', (chunk) => {
    output += chunk;
  });
  const stop = () => child.kill('SIGTERM');
  const end = Date.now() + 30_000;
  for (;;) {
    const up = await fetch(`http://127.0.0.1:${port}/`).then(
      (response) => response.ok,
      () => false,
    );
    if (up) return { url: `http://127.0.0.1:${port}`, stop, output: () => output };
    if (child.exitCode !== null || Date.now() > end) {
      stop();
      throw new Error(`next start did not answer\n${tail(output)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

await runChatApp('next', 'ai-chat-next.png', async ({ results, logs, closing, onFailure }) => {
  const project = await installPackedWith('convo-sdk-next-chat-', DEPS);
  closing('the project', () => project.remove());
  cpSync(join(example, 'app'), join(project.dir, 'app'), { recursive: true });
  // As a fresh app has them: `strict: false`, as `next build` writes a tsconfig, and its type check on.
  const tsconfig = JSON.parse(readFileSync(join(example, 'tsconfig.json'), 'utf8'));
  tsconfig.compilerOptions.strict = false;
  writeFileSync(join(project.dir, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2));
  writeFileSync(join(project.dir, 'next.config.mjs'), 'export default {};\n');
  const mock = await startMock(project.dir, ['--token', TOKEN]);
  closing('the mock', () => mock.stop());
  const { CONVO_BASE_URL, CONVO_API_TOKEN, CONVO_TOKEN, ...unset } = process.env;
  const env = {
    ...unset,
    NEXT_TELEMETRY_DISABLED: '1',
    CONVO_BASE_URL: mock.url,
    CONVO_API_TOKEN: TOKEN,
    CONVO_TOKEN: TOKEN,
  };
  // The build evaluates the routes' modules, which create their clients: without the service's settings.
  const build = await mustRun(
    process.execPath,
    [join('node_modules', 'next', 'dist', 'bin', 'next'), 'build'],
    {
      cwd: project.dir,
      env: { ...unset, NEXT_TELEMETRY_DISABLED: '1' },
      timeoutMs: 150_000,
    },
  );
  console.log(`next build took ${duration(build.ms)}`);
  const redisPort = await freePort();
  let redis = hasRedis ? await startRedis(redisPort, project.dir) : undefined;
  closing('redis-server', () => redis?.kill());
  if (redis) env.REDIS_URL = `redis://127.0.0.1:${redisPort}`;
  const server = await startNext(project.dir, await freePort(), env);
  closing('next start', () => server.stop());
  onFailure(() => tail(server.output(), 20));
  const chromium = await launchChromium({ width: 900, height: 700 });
  closing('Chromium', () => chromium.close());
  const { page } = chromium;
  recordPage(page, logs);

  await page.goto(server.url, { timeout: 20_000 });
  await page.waitForSelector('main[data-chat]', { timeout: 20_000 });
  await page.waitForFunction(() => location.search.includes('chat='), null, { timeout: 10_000 });
  const chatId = await page.locator('main').getAttribute('data-chat');
  const { listing, assistants, send, completed, sameAsSaved, cancelledOnService } = chatPage(page, {
    mockUrl: mock.url,
    token: TOKEN,
    chatId,
  });
  const step = stepper(results);

  await step('streamed text equals the saved turn', async () => {
    await send('[[mock:words n=20]] [[mock:slow ms=60]] hello');
    const message = assistants().nth(0);
    await message.waitFor({ timeout: 10_000 });
    const seen = await completed(message);
    if (seen.size < 3) throw new Error(`only ${seen.size} states of the text were seen: not streamed`);
    await sameAsSaved(message);
  });

  await step('a tool approval clicked continues the same message', async () => {
    await send('[[mock:tool_approval]] find the report');
    const message = assistants().nth(1);
    await message.locator('button.approve').click({ timeout: 10_000 });
    await completed(message);
    const count = await assistants().count();
    if (count !== 2) throw new Error(`${count} assistant messages, not 2`);
    const state = await message.locator('.tool').getAttribute('data-state');
    if (state !== 'output-available') throw new Error(`the tool part is ${state}`);
    await sameAsSaved(message);
  });

  await step('Stop cancels the turn on the service; the next message is accepted', async () => {
    await send('[[mock:hang]] wait');
    // The hang answers no text: the message is in the page, empty (not visible).
    await assistants().nth(2).waitFor({ state: 'attached', timeout: 10_000 });
    await page.click('#stop');
    await cancelledOnService();
    await page.waitForSelector('#status:text("ready")', { timeout: 5_000 });
    await send('and now this');
    await completed(assistants().nth(3));
    if (await page.locator('#error').count()) throw new Error(await page.locator('#error').textContent());
  });

  await step('a reload mid-turn resumes live and ends with the saved text', async () => {
    // Long enough (6 s) that the page reloads, loads its history and resumes before the turn ends.
    await send('[[mock:words n=60]] [[mock:slow ms=100]] a long one');
    const before = assistants().nth(4);
    await page.waitForFunction(
      () =>
        (document.querySelectorAll('article[data-role="assistant"]')[4]?.textContent ?? '').split(' ')
          .length > 4,
      null,
      { timeout: 10_000 },
    );
    await before.waitFor();
    await page.reload();
    // The saved turns come back from the history, the running one from the resume, once.
    const resumed = assistants().nth(4);
    await resumed.waitFor({ timeout: 15_000 });
    const seen = await completed(resumed);
    if (seen.size < 3) throw new Error(`only ${seen.size} states of the text after the reload: not live`);
    await sameAsSaved(resumed);
    for (const n of [0, 1, 3]) await sameAsSaved(assistants().nth(n));
    if (await page.locator('#error').count()) throw new Error(await page.locator('#error').textContent());
    const statuses = (await listing()).map((turn) => turn.status);
    if (statuses.length !== 5) throw new Error(`${statuses.length} turns on the service, not 5`);
    const count = await assistants().count();
    if (count !== 5) throw new Error(`${count} assistant messages after the reload, not 5`);
  });

  await step(
    'a reload while the turn goes on after a tool approval shows the tool and the saved text',
    async () => {
      await send('[[mock:tool_approval]] [[mock:words n=60]] [[mock:slow ms=100]] look it up');
      const message = assistants().nth(5);
      await message.locator('button.approve').click({ timeout: 10_000 });
      await page.waitForFunction(
        () =>
          (
            document.querySelectorAll('article[data-role="assistant"]')[5]?.querySelector('.text')
              ?.textContent ?? ''
          ).split(' ').length > 4,
        null,
        { timeout: 10_000 },
      );
      await page.reload();
      const resumed = assistants().nth(5);
      await resumed.waitFor({ timeout: 15_000 });
      await completed(resumed);
      const state = await resumed.locator('.tool').getAttribute('data-state', { timeout: 5_000 });
      if (state !== 'output-available') throw new Error(`the tool part is ${state}`);
      await sameAsSaved(resumed);
      if (await page.locator('#error').count()) throw new Error(await page.locator('#error').textContent());
      const count = await assistants().count();
      if (count !== 6) throw new Error(`${count} assistant messages after the reload, not 6`);
    },
  );
  if (redis)
    await step(
      'Redis SIGKILLed and restarted mid-turn: the page gets the saved text, the next turn goes',
      async () => {
        await send('[[mock:words n=40]] [[mock:slow ms=100]] through a restart');
        const message = assistants().nth(6);
        await page.waitForFunction(
          () =>
            (document.querySelectorAll('article[data-role="assistant"]')[6]?.textContent ?? '').split(' ')
              .length > 4,
          null,
          { timeout: 10_000 },
        );
        await redis.kill();
        await new Promise((resolve) => setTimeout(resolve, 500));
        redis = await startRedis(redisPort, project.dir);
        await completed(message);
        await sameAsSaved(message);
        await send('after the restart');
        const next = assistants().nth(7);
        await completed(next);
        await sameAsSaved(next);
        if (await page.locator('#error').count()) throw new Error(await page.locator('#error').textContent());
      },
    );
  await screenshot(page, 'ai-chat-next.png');
});
