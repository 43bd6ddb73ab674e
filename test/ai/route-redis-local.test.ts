import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChatRoute, LEASE_MS } from '../../src/ai/index.js';
import { mockClient } from '../support/mock-client.js';
import { expectEndedAsSaved, gatedClock, page, reloadMidTurn, STEP_MS, until } from './route-support.js';

// One route process on a real Redis (Debian's redis-server), in this process: Redis emptied and the route's
// connections dropped, as a restart does, and what the route writes again once it has reconnected.
// Skipped only where redis-server is absent outside CI; CI installs it.
const hasRedis = spawnSync('redis-server', ['--version']).status === 0;
const run = hasRedis || process.env.CI === 'true';
let redis: ChildProcess | undefined;
let url = '';

/** A free loopback port. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

beforeAll(async () => {
  if (!run) return;
  const port = await freePort();
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
  const child = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'inherit'] });
  redis = child;
  await new Promise<void>((resolve, reject) => {
    let seen = '';
    child.on('exit', (code) => reject(new Error(`redis-server exited (${code}): ${seen}`)));
    child.stdout?.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      if (seen.includes('Ready to accept connections')) resolve();
    });
  });
  url = `redis://127.0.0.1:${port}`;
});

afterAll(() => {
  redis?.kill();
});

/** Polls `check` every 20 ms, up to `tries` times: real time, for what Redis's reconnection takes (a hang guard). */
async function eventually(check: () => Promise<boolean>, what: string, tries = 500): Promise<void> {
  for (let n = 0; n < tries; n++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`never happened: ${what}`);
}

describe.runIf(run)('createChatRoute on a real Redis, in this process', () => {
  it('4.4 writes again the record of the turn whose answer it reads, not of a read paused at an approval', async () => {
    const admin = createClient({ url });
    await admin.connect();
    const gate = gatedClock();
    const { mock, client } = mockClient({ clock: gate.clock });
    const [live, paused] = await Promise.all([client.chats.create({}), client.chats.create({})]);
    const liveId = live?.id as string;
    const pausedId = paused?.id as string;
    const route = createChatRoute({ client, authorize: 'every-chat-to-every-caller', redis: { url } });
    const record = (chatId: string) => admin.get(`convo-route:record:${chatId}`);
    try {
      gate.release(1000);
      const asking = page(pausedId, route.handle);
      await asking.chat.sendMessage({ text: '[[mock:tool_approval]] look it up' });
      const reading = page(liveId, route.handle);
      void reading.chat.sendMessage({ text: '[[mock:hang]] wait' }).catch(() => {});
      await until(
        () =>
          mock.store.turns().some((turn) => turn.chat_id === liveId && turn.status === 'pending') &&
          reading.last()?.role === 'assistant',
        'the turn started',
      );
      await eventually(async () => (await record(liveId)) !== null, 'the record written');
      expect(await record(pausedId)).not.toBeNull();
      // Redis restarts empty: every key gone, the route's connections dropped.
      await admin.flushAll();
      await admin.sendCommand(['CLIENT', 'KILL', 'TYPE', 'normal', 'SKIPME', 'yes']);
      await eventually(async () => (await record(liveId)) !== null, 'the record written again');
      const again = JSON.parse((await record(liveId)) as string) as { idempotencyKey: string };
      expect(again.idempotencyKey).toBe(reading.last()?.metadata?.convo?.idempotencyKey);
      // The paused read's turn may have gone on through another process: its record is not written again.
      expect(await record(pausedId)).toBeNull();
      await reading.chat.stop();
    } finally {
      await route.close();
      await admin.close();
    }
  });

  it('4.4 two routes on one Redis: a reload resumed through the other reads the held answer live; keys under the prefix, for their lifetimes', async () => {
    const admin = createClient({ url });
    const given = createClient({ url });
    await Promise.all([admin.connect(), given.connect()]);
    const gate = gatedClock();
    const { mock, client } = mockClient({ clock: gate.clock });
    const { id } = await client.chats.create({});
    const turns = () => mock.store.turns();
    const one = createChatRoute({
      client,
      authorize: 'every-chat-to-every-caller',
      redis: { url, keyPrefix: 'p1' },
    });
    // The other on a client of the application's own, which the route duplicates and never closes.
    const two = createChatRoute({
      client,
      authorize: 'every-chat-to-every-caller',
      redis: { client: given, keyPrefix: 'p1' },
    });
    try {
      const text = `[[mock:slow ms=${STEP_MS}]] [[mock:words n=8]] hi`;
      const { shown, after, resumed } = await reloadMidTurn(gate, id, one.handle, two.handle, text, 200_000);
      await eventually(async () => after.text() === shown, 'the start, relayed from the first route');
      const key = after.last()?.metadata?.convo?.idempotencyKey;
      // The record for a day; the lease for LEASE_MS, renewed while the first route reads the turn.
      const recordTtl = await admin.ttl(`p1:record:${id}`);
      expect(recordTtl).toBeGreaterThan(86_000);
      expect(recordTtl).toBeLessThanOrEqual(86_400);
      const leaseTtl = await admin.pTTL(`p1:lease:convo:${id}:${key}`);
      expect(leaseTtl).toBeGreaterThan(0);
      expect(leaseTtl).toBeLessThanOrEqual(LEASE_MS);
      expect(turns()[0]?.status).toBe('pending');
      gate.release(100);
      await resumed;
      expectEndedAsSaved(after, turns);
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
    // The application's client is still its own, connected.
    expect(given.isReady).toBe(true);
    await Promise.all([admin.close(), given.close()]);
  });

  it('a Redis that cannot be reached: a send answers 503 RedisUnavailableError before anything is sent', async () => {
    const { mock, client } = mockClient();
    const { id } = await client.chats.create({});
    const nowhere = `redis://127.0.0.1:${await freePort()}`;
    const route = createChatRoute({
      client,
      authorize: 'every-chat-to-every-caller',
      redis: { url: nowhere },
    });
    try {
      const answer = await route.handle(
        new Request('http://app.test/api/chat', {
          method: 'POST',
          body: JSON.stringify({
            id,
            trigger: 'submit-message',
            messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'hello' }] }],
          }),
        }),
      );
      expect(answer.status).toBe(503);
      expect(await answer.json()).toMatchObject({ error: { name: 'RedisUnavailableError' } });
      expect(mock.store.turns()).toHaveLength(0);
    } finally {
      await route.close();
    }
  });
});
