import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChatRoute, LEASE_MS } from '../../src/ai/index.js';
import { freePort } from '../support/loopback.js';
import { mockClient } from '../support/mock-client.js';
import { expectEndedAsSaved, gatedClock, reloadMidTurn, STEP_MS, until } from './route-support.js';

// Two routes on a real Redis (Debian's redis-server), in this process: the keys they write and the answer one
// holds, followed through the other (route-redis.test.ts runs the built package in processes of their own).
// Skipped only where redis-server is absent outside CI; CI installs it.
const hasRedis = spawnSync('redis-server', ['--version']).status === 0;
const run = hasRedis || process.env.CI === 'true';
let redis: ChildProcess | undefined;
let url = '';

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
      const { shown, after, resumed } = await reloadMidTurn(
        gate,
        id,
        one.handle,
        two.handle,
        text,
        (condition, what) => until(condition, what, 200_000),
      );
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
});
