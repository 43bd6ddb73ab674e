import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { createClient } from 'redis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createChatRoute, EVERY_CHAT_TO_EVERY_CALLER, type RouteRedisOptions } from '../../src/ai/index.js';
import { Client } from '../../src/index.js';
import { DEFAULT_CREDENTIAL, type MockServer, startMockServer } from '../../src/mock/index.js';
import { eventually as settled } from '../support/leaks.js';
import { freePort } from '../support/loopback.js';
import {
  expectEndedAsSaved,
  gatedClock,
  page,
  reloadMidTurn,
  STEP_MS,
  sendRequest,
} from './route-support.js';

/**
 * Waits for `condition`, which another process makes true: polled on a timer, bounded only as a hang guard (a
 * count of macrotasks passes in about a second, which a busy machine's other process may need and more).
 */
const across = (condition: () => boolean, what: string) =>
  settled(() => (condition() ? undefined : `never happened: ${what}`), 60_000);

// Route processes sharing a real Redis (Debian's redis-server), each on the route's own clients: a turn sent
// through one, a reload, the resume through the other; Redis killed and restarted mid-turn; a process killed
// mid-turn; a marker a dead process left. Skipped only where redis-server is absent outside CI; CI installs it.
const hasRedis = spawnSync('redis-server', ['--version']).status === 0;
const run = hasRedis || process.env.CI === 'true';
const children: ChildProcess[] = [];
const gate = gatedClock();
let mock: MockServer;
let servers: string[] = [];
let redisArgs: string[] = [];
let redisChild: ChildProcess | undefined;
let env: Record<string, string> = {};
const script = join(import.meta.dirname, 'route-server.mjs');

/** Spawns `command` and resolves with the first match of `pattern` on its stdout. */
function started(command: string, args: string[], pattern: RegExp, extra = {}): Promise<string> {
  const child = spawn(command, args, {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ...extra },
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
  redisArgs = ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
  await startRedis();
  mock = await startMockServer({ port: 0, clock: gate.clock });
  env = {
    MOCK_URL: mock.url,
    REDIS_URL: `redis://127.0.0.1:${redisPort}`,
    CONVO_TOKEN: DEFAULT_CREDENTIAL.token,
  };
  servers = await Promise.all(
    [0, 1].map(() => started(process.execPath, [script], /listening (http:\/\/\S+)/, env)),
  );
});

/** Starts redis-server on its port (again, after a kill). */
async function startRedis(): Promise<void> {
  await started('redis-server', redisArgs, /Ready to accept connections/);
  redisChild = children.at(-1);
}

/** Kills redis-server at once, as a crash or an OOM kill does. */
async function killRedis(): Promise<void> {
  const child = redisChild as ChildProcess;
  const gone = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await gone;
}

/** Polls `check` every 100 ms, up to `tries` times: real time, for what Redis's reconnection takes. */
async function eventually(check: () => Promise<boolean>, what: string, tries = 100): Promise<void> {
  for (let n = 0; n < tries; n++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`never happened: ${what}`);
}

// Steps one test released and its turns did not use would let the next test's turn run ungated.
beforeEach(() => gate.reset());

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
      across,
    );
    await across(() => after.text() === shown, 'the start, relayed from the first process');
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
    await across(() => first.last()?.role === 'assistant', 'the answer started');
    await first.chat.stop();
    await across(() => turns()[0]?.status === 'cancelled', 'the turn cancelled');
    const second = page(id, through(1));
    await second.chat.sendMessage({ text: 'again' });
    expect(second.chat.error).toBeUndefined();
    expect(second.last()?.metadata?.convo?.status).toBe('completed');
  });

  it('a Redis restart mid-turn: no process exits, the page that opened the turn reads it to its end, a send while Redis is away answers 503 RedisUnavailableError, one after it is back is served', async () => {
    const client = new Client({ baseUrl: mock.url, token: DEFAULT_CREDENTIAL.token });
    const { id } = await client.chats.create({});
    const other = await client.chats.create({});
    const turns = () => mock.mock.store.turns().filter((turn) => turn.chat_id === id);
    const first = page(id, through(0));
    const sent = first.chat.sendMessage({ text: `[[mock:slow ms=${STEP_MS}]] [[mock:words n=8]] hi` });
    gate.release(3);
    await across(() => first.text().trim().split(/\s+/).length >= 3, 'three words shown');
    await killRedis();
    let refused: Response | undefined;
    await eventually(async () => {
      refused = await through(1)(sendRequest(other.id, 'hello'));
      if (refused.status === 200) await refused.body?.cancel();
      return refused.status === 503;
    }, 'a send refused while Redis is away');
    expect(((await (refused as Response).json()) as { error: { name: string } }).error.name).toBe(
      'RedisUnavailableError',
    );
    gate.release(100);
    await sent;
    expect(first.chat.error).toBeUndefined();
    expect(first.text()).toBe(turns()[0]?.content);
    await startRedis();
    // Both processes: a later test must not meet a client of either still reconnecting.
    const another = await client.chats.create({});
    for (const [n, chatId] of [
      [1, other.id],
      [0, another.id],
    ] as const)
      await eventually(async () => {
        const answer = await through(n)(sendRequest(chatId, 'hello again'));
        await answer.body?.cancel();
        return answer.status === 200;
      }, `a send served by process ${n} once Redis is back`);
    for (const child of children) expect(child.exitCode).toBeNull();
  });

  it('4.4 a process SIGKILLed mid-turn: a resume through another answers within 5 s and ends with the saved text; a stop cancels its next turn', async () => {
    const extra = spawn(process.execPath, [script], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, ...env },
    });
    children.push(extra);
    const url = await new Promise<string>((resolve) => {
      let seen = '';
      extra.stdout?.on('data', (chunk: Buffer) => {
        seen += chunk.toString();
        const match = /listening (http:\/\/\S+)/.exec(seen);
        if (match?.[1]) resolve(match[1]);
      });
    });
    const viaExtra = (request: Request) =>
      fetch(new Request(`${url}${new URL(request.url).pathname}`, request));
    const client = new Client({ baseUrl: mock.url, token: DEFAULT_CREDENTIAL.token });
    const { id } = await client.chats.create({});
    const turns = () => mock.mock.store.turns().filter((turn) => turn.chat_id === id);
    const before = page(id, viaExtra);
    void before.chat
      .sendMessage({ text: `[[mock:slow ms=${STEP_MS}]] [[mock:words n=8]] hi` })
      .catch(() => {});
    gate.release(3);
    await across(() => before.text().trim().split(/\s+/).length >= 3, 'three words shown');
    const gone = new Promise((resolve) => extra.once('exit', resolve));
    extra.kill('SIGKILL');
    await gone;
    before.reload();
    const asked = performance.now();
    const answer = await through(0)(new Request(`http://app.test/api/chat/${id}/stream`));
    expect(answer.status).toBe(200);
    expect(performance.now() - asked).toBeLessThan(5000);
    gate.release(100);
    const text = await answer.text();
    expect(text).toContain('"status":"completed"');
    expect(turns()).toHaveLength(1);
    expect(turns()[0]?.status).toBe('completed');
    // Nothing the dead process left blocks the chat: a new turn, stopped through the other process.
    const next = page(id, through(1));
    void next.chat.sendMessage({ text: '[[mock:hang]] wait' }).catch(() => {});
    await across(() => turns()[1]?.status === 'pending', 'the next turn started');
    const stopped = await through(0)(new Request(`http://app.test/api/chat/${id}/stop`, { method: 'POST' }));
    expect(await stopped.json()).toEqual({ cancelled: true });
    expect(turns()[1]?.status).toBe('cancelled');
  });

  it('4.4 a live marker a dead process left (resumable-stream sentinel, no lease): the resume reads the turn by its key', async () => {
    const client = new Client({ baseUrl: mock.url, token: DEFAULT_CREDENTIAL.token });
    const { id } = await client.chats.create({});
    gate.release(100);
    const body = { content: 'hello' };
    const turn = client.turns.stream(id, body);
    await turn.done();
    const redis = createClient({ url: env.REDIS_URL as string });
    await redis.connect();
    const record = { messageId: `convo-${turn.idempotencyKey}`, idempotencyKey: turn.idempotencyKey, body };
    await redis.set(`convo-route:record:${id}`, JSON.stringify(record));
    await redis.set(`convo-route:rs:sentinel:convo:${id}:${turn.idempotencyKey}`, '1', { EX: 86_400 });
    redis.destroy();
    const asked = performance.now();
    const answer = await through(1)(new Request(`http://app.test/api/chat/${id}/stream`));
    const text = await answer.text();
    // No wait for an acknowledgement nobody sends (resumable-stream waits a second for one).
    expect(performance.now() - asked).toBeLessThan(1000);
    expect(text).toContain('"status":"completed"');
    const saved = mock.mock.store.turns().find((one) => one.chat_id === id);
    expect(text).toContain(JSON.stringify(saved?.content).slice(1, -1).split(' ')[0]);
  });

  it('redis: { client }: the route uses a node-redis client of yours for its records, and close() leaves it open', async () => {
    const client = new Client({ baseUrl: mock.url, token: DEFAULT_CREDENTIAL.token });
    const { id } = await client.chats.create({});
    const redis = createClient({ url: env.REDIS_URL as string, disableOfflineQueue: true });
    redis.on('error', () => {});
    await redis.connect();
    const options = { client: redis, keyPrefix: 'mine' } satisfies RouteRedisOptions;
    const route = createChatRoute({ client, authorize: EVERY_CHAT_TO_EVERY_CALLER, redis: options });
    gate.release(100);
    const answer = await route.handle(sendRequest(id, 'hello'));
    const record = JSON.parse((await redis.get(`mine:record:${id}`)) ?? 'null') as {
      idempotencyKey?: string;
    };
    expect(record?.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(await answer.text()).toContain('"status":"completed"');
    await route.close();
    expect(redis.isReady).toBe(true);
    redis.destroy();
  });
});
