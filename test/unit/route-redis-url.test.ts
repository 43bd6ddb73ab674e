import { describe, expect, it, vi } from 'vitest';
import { RouteRedis } from '../../src/ai/route-redis.js';
import type { FakeRedis } from '../support/fake-redis.js';

/** The clients the `redis` package made here, with the options each was made with. */
const made = vi.hoisted(() => [] as Array<{ options: object; client: FakeRedis }>);

vi.mock('redis', async () => {
  const { FakeNet, FakeRedis } = await import('../support/fake-redis.js');
  const net = new FakeNet();
  return {
    createClient: (options: object) => {
      const client = new FakeRedis(net);
      made.push({ options, client });
      return client;
    },
  };
});

describe('RouteRedis from a url: clients of its own, made by the redis package', () => {
  it('made with the url and no offline queue, both connected by the route, both closed by close()', async () => {
    const redis = new RouteRedis({ url: 'redis://cache.internal:6380' }, () => {});
    await redis.ready();
    await redis.ready();
    expect(made.map(({ options }) => options)).toEqual([
      { url: 'redis://cache.internal:6380', disableOfflineQueue: true },
    ]);
    const main = made[0]?.client as FakeRedis;
    expect(main.duplicates).toHaveLength(1);
    const sub = main.duplicates[0] as FakeRedis;
    expect([main.isReady, sub.isReady]).toEqual([true, true]);
    await redis.records.set('c', { messageId: 'm', idempotencyKey: 'k', body: { content: 'hi' } });
    expect([...main.net.data.keys()]).toEqual(['convo-route:record:c']);
    await redis.close();
    expect([main.destroyed, sub.destroyed]).toEqual([true, true]);
  });
});
