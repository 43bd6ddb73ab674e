import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../../src/index.js';
import { DEFAULT_CREDENTIAL, type MockServer, startMockServer } from '../../src/mock/index.js';
import { expectEndedAsSaved, gatedClock, page, reloadMidTurn, STEP_MS, until } from './route-support.js';

// Two route processes sharing a real Redis (Debian's redis-server): a turn sent through one, a reload, the
// resume through the other. Skipped only where redis-server is absent outside CI; CI installs it.
const hasRedis = spawnSync('redis-server', ['--version']).status === 0;
const run = hasRedis || process.env.CI === 'true';
const children: ChildProcess[] = [];
const gate = gatedClock();
let mock: MockServer;
let servers: string[] = [];

/** A free loopback port. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Spawns `command` and resolves with the first match of `pattern` on its stdout. */
function started(command: string, args: string[], pattern: RegExp, env = {}): Promise<string> {
  const child = spawn(command, args, {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let seen = '';
    child.on('exit', (code) => reject(new Error(`${command} exited (${code}) before it was ready: ${seen}`)));
    child.stdout?.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const match = pattern.exec(seen);
      if (match) resolve(match[1] ?? match[0]);
    });
  });
}

beforeAll(async () => {
  if (!run) return;
  const redisPort = await freePort();
  await started(
    'redis-server',
    ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    /Ready to accept connections/,
  );
  mock = await startMockServer({ port: 0, clock: gate.clock });
  const env = {
    MOCK_URL: mock.url,
    REDIS_URL: `redis://127.0.0.1:${redisPort}`,
    CONVO_TOKEN: DEFAULT_CREDENTIAL.token,
  };
  const script = join(import.meta.dirname, 'route-server.mjs');
  servers = await Promise.all(
    [0, 1].map(() => started(process.execPath, [script], /listening (http:\/\/\S+)/, env)),
  );
});

afterAll(async () => {
  for (const child of children) child.kill();
  await mock?.close();
});

/** The route of process `n`, reached over HTTP. */
const through = (n: number) => (request: Request) => {
  const url = new URL(request.url);
  return fetch(new Request(`${servers[n]}${url.pathname}`, request));
};

describe.runIf(run)('createChatRoute on two processes sharing Redis (resumable-stream)', () => {
  it('4.4 sent through one process, reloaded, resumed through the other: live, then the saved text', async () => {
    const client = new Client({ baseUrl: mock.url, token: DEFAULT_CREDENTIAL.token });
    const { id } = await client.chats.create({});
    const { shown, after, resumed } = await reloadMidTurn(
      gate,
      id,
      through(0),
      through(1),
      `[[mock:slow ms=${STEP_MS}]] [[mock:words n=8]] hi`,
      200_000,
    );
    await until(() => after.text() === shown, 'the start, relayed from the first process', 200_000);
    const turns = () => mock.mock.store.turns().filter((turn) => turn.chat_id === id);
    expect(turns()[0]?.status).toBe('pending');
    gate.release(100);
    await resumed;
    expectEndedAsSaved(after, turns);
  });

  it('4.6 stop() through one process cancels the turn; the next message, through the other, is accepted', async () => {
    const client = new Client({ baseUrl: mock.url, token: DEFAULT_CREDENTIAL.token });
    const { id } = await client.chats.create({});
    const turns = () => mock.mock.store.turns().filter((turn) => turn.chat_id === id);
    const first = page(id, through(0));
    void first.chat.sendMessage({ text: '[[mock:hang]] wait' }).catch(() => {});
    await until(() => first.last()?.role === 'assistant', 'the answer started', 200_000);
    await first.chat.stop();
    await until(() => turns()[0]?.status === 'cancelled', 'the turn cancelled', 200_000);
    const second = page(id, through(1));
    await second.chat.sendMessage({ text: 'again' });
    expect(second.chat.error).toBeUndefined();
    expect(second.last()?.metadata?.convo?.status).toBe('completed');
  });
});
