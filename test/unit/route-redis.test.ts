import { afterEach, describe, expect, it, vi } from 'vitest';
import { RedisUnavailableError } from '../../src/ai/index.js';
import { LEASE_MS, RouteRedis } from '../../src/ai/route-redis.js';
import { FakeNet, FakeRedis } from '../support/fake-redis.js';
import { reading, settle } from '../support/stream-reading.js';

/** A route's Redis on the application's client `main` (connected, as the application connects its own). */
function routeRedis(options: { keyPrefix?: string } = {}, net = new FakeNet()) {
  const main = new FakeRedis(net);
  main.isReady = true;
  let reconnected = 0;
  const redis = new RouteRedis({ client: main, ...options }, () => reconnected++);
  return { net, main, redis, reconnected: () => reconnected };
}

/** A source the test writes to. */
function source() {
  let controller!: ReadableStreamDefaultController<string>;
  const stream = new ReadableStream<string>({
    start(own) {
      controller = own;
    },
  });
  return {
    make: () => stream,
    write: (chunk: string) => controller.enqueue(chunk),
    end: () => controller.close(),
  };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("RouteRedis: the route's records and live answers on Redis", () => {
  it('records under {prefix}:record:{chatId} for a day (prefix convo-route by default), read back and deleted', async () => {
    const { net, redis } = routeRedis();
    const record = { messageId: 'm', idempotencyKey: 'k', body: { content: 'hi' } };
    await redis.records.set('c', record);
    expect(net.sets).toEqual([['convo-route:record:c', JSON.stringify(record), { EX: 86_400 }]]);
    expect(await redis.records.get('c')).toEqual(record);
    expect(await redis.records.get('other')).toBeUndefined();
    await redis.records.delete?.('c');
    expect(net.data.has('convo-route:record:c')).toBe(false);
    const prefixed = routeRedis({ keyPrefix: 'p' });
    await prefixed.redis.records.set('c', record);
    expect([...prefixed.net.data.keys()]).toEqual(['p:record:c']);
  });

  it("ready: connects the duplicate once, tells of the main client's 'ready'; not ready or failing: RedisUnavailableError", async () => {
    const { main, redis, reconnected } = routeRedis();
    await redis.ready();
    await redis.ready();
    expect(main.duplicates).toHaveLength(1);
    const sub = main.duplicates[0] as FakeRedis;
    expect(sub.isReady).toBe(true);
    expect(reconnected()).toBe(0);
    main.emit('ready');
    expect(reconnected()).toBe(1);
    // A lost connection: the error is kept (never thrown at the process), and ready says Redis is away.
    const lost = new Error('connection lost');
    main.isReady = false;
    main.emit('error', lost);
    expect(redis.lastError).toBe(lost);
    const away = await redis.ready().catch((error) => error);
    expect(away).toBeInstanceOf(RedisUnavailableError);
    expect(away.cause).toBe(lost);
    main.isReady = true;
    sub.isReady = false;
    await expect(redis.ready()).rejects.toBeInstanceOf(RedisUnavailableError);
    sub.emit('error', 'sub lost');
    expect(redis.lastError).toBe('sub lost');
  });

  it('a first connection that fails is tried again by the next request', async () => {
    const net = new FakeNet();
    const main = new FakeRedis(net);
    main.isReady = true;
    const failing = new Error('refused');
    const original = main.duplicate.bind(main);
    main.duplicate = () => {
      const sub = original();
      sub.connectFails = main.duplicates.length === 1 ? failing : undefined;
      return sub;
    };
    const redis = new RouteRedis({ client: main }, () => {});
    const refused = await redis.ready().catch((error) => error);
    expect(refused).toBeInstanceOf(RedisUnavailableError);
    expect(refused.cause).toBe(failing);
    await redis.ready();
    expect(main.duplicates).toHaveLength(2);
  });

  it('a command that never answers fails after 1 s; a connection that never comes, after 2 s', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { net, main, redis } = routeRedis();
    await redis.ready();
    net.hang = true;
    let failed: unknown;
    void Promise.resolve(redis.records.get('c')).catch((error) => {
      failed = error;
    });
    await vi.advanceTimersByTimeAsync(999);
    expect(failed).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(failed).toEqual(new Error('Redis did not answer within 1000 ms'));
    // A command that answers leaves no timer behind.
    net.hang = false;
    expect(await redis.records.get('c')).toBeUndefined();
    expect(vi.getTimerCount()).toBe(0);
    const slow = routeRedis();
    slow.main.connect = () => new Promise(() => {});
    const sub = slow.main.duplicate.bind(slow.main);
    slow.main.duplicate = () => {
      const copy = sub();
      copy.connect = () => new Promise(() => {});
      return copy;
    };
    let refused: unknown;
    void slow.redis.ready().catch((error) => {
      refused = error;
    });
    await vi.advanceTimersByTimeAsync(1999);
    expect(refused).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(refused).toBeInstanceOf(RedisUnavailableError);
    expect((refused as Error).cause).toEqual(new Error('Redis did not answer within 2000 ms'));
    expect(main.isReady).toBe(true);
  });

  it('a live answer: its lease set for LEASE_MS and renewed every second while it is read; a resume follows it to its end', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const { net, redis } = routeRedis();
    const leases = () => net.sets.filter(([key]) => key === 'convo-route:lease:s');
    const src = source();
    const copy = await redis.streams.createNewResumableStream('s', src.make);
    await copy?.cancel();
    expect(leases()).toEqual([['convo-route:lease:s', '1', { PX: LEASE_MS }]]);
    // resumable-stream's own keys, under the same prefix, with the options it gives.
    expect(net.sets).toContainEqual(['convo-route:rs:sentinel:s', '1', { EX: 86_400 }]);
    src.write('one ');
    await settle();
    const follower = reading(await redis.streams.resumeExistingStream('s'), 10);
    expect(await follower.now()).toEqual({ text: 'one ', done: false });
    await vi.advanceTimersByTimeAsync(999);
    expect(leases()).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(leases()).toHaveLength(2);
    src.write('two');
    src.end();
    expect(await follower.now()).toEqual({ text: 'two', done: true });
    // Ended: renewed no more, and the follower's lease check gone.
    await vi.advanceTimersByTimeAsync(5000);
    expect(leases()).toHaveLength(2);
    expect(vi.getTimerCount()).toBe(0);
    await redis.close();
  });

  it('a resume of an answer whose lease lapsed, or of none, finds nothing; Redis away, nothing either', async () => {
    const { net, redis } = routeRedis();
    const src = source();
    await (await redis.streams.createNewResumableStream('s', src.make))?.cancel();
    net.data.delete('convo-route:lease:s');
    expect(await redis.streams.resumeExistingStream('s')).toBeUndefined();
    expect(await redis.streams.resumeExistingStream('never')).toBeUndefined();
    net.down = true;
    expect(await redis.streams.resumeExistingStream('s')).toBeUndefined();
    net.down = false;
    src.end();
    await redis.close();
  });

  it('a follower fails once the lease of the process reading the answer lapses (checked every second)', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const { net, redis } = routeRedis();
    // Another process on the same Redis follows the answer.
    const other = routeRedis({}, net).redis;
    const src = source();
    await (await redis.streams.createNewResumableStream('s', src.make))?.cancel();
    src.write('one');
    await settle();
    const stream = await other.streams.resumeExistingStream('s');
    const reader = (stream as ReadableStream<string>).getReader();
    expect(await reader.read()).toEqual({ done: false, value: 'one' });
    // Renewed, the lease holds: the follower waits on.
    await vi.advanceTimersByTimeAsync(1000);
    // The reading process died: nothing renews its lease, which lapses.
    await redis.close();
    net.data.delete('convo-route:lease:s');
    const next = reader.read().then(
      () => 'read on',
      (error: Error) => error.message,
    );
    await vi.advanceTimersByTimeAsync(1000);
    expect(await next).toBe('the process reading the turn is gone: resume to read it again');
    expect(vi.getTimerCount()).toBe(0);
    await other.close();
  });

  it('a chunk Redis lost, or an end never marked: the follower fails rather than show a text with a hole', async () => {
    const { net, redis } = routeRedis();
    const src = source();
    await (await redis.streams.createNewResumableStream('s', src.make))?.cancel();
    src.write('one ');
    await settle();
    const follower = reading(await redis.streams.resumeExistingStream('s'), 10);
    expect(await follower.now()).toEqual({ text: 'one ', done: false });
    net.drop = (channel, message) => channel.includes(':chunk:') && message.includes('two');
    src.write('two ');
    src.write('three');
    await expect(follower.now()).rejects.toThrow(
      'the held answer broke off (Redis lost part of it): resume to read it again',
    );
    net.drop = () => false;
    src.end();
    // The end marker lost, the end itself seen: the follower fails all the same.
    const cut = source();
    await (await redis.streams.createNewResumableStream('t', cut.make))?.cancel();
    cut.write('one');
    await settle();
    const short = reading(await redis.streams.resumeExistingStream('t'), 10);
    expect(await short.now()).toEqual({ text: 'one', done: false });
    net.drop = (channel, message) => channel.includes(':chunk:') && message.includes('\u0003');
    cut.end();
    await expect(short.now()).rejects.toThrow('the held answer broke off');
    await redis.close();
  });

  it("close: stops renewing leases and closes the route's own client, never the application's", async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const { net, main, redis } = routeRedis();
    const src = source();
    await (await redis.streams.createNewResumableStream('s', src.make))?.cancel();
    // A follower that leaves takes its lease check with it; one still following loses it at close.
    await (await redis.streams.resumeExistingStream('s'))?.cancel();
    expect(vi.getTimerCount()).toBe(1);
    const following = await redis.streams.resumeExistingStream('s');
    expect(vi.getTimerCount()).toBe(2);
    await redis.close();
    expect(vi.getTimerCount()).toBe(0);
    const count = net.sets.length;
    await vi.advanceTimersByTimeAsync(5000);
    expect(net.sets).toHaveLength(count);
    await following?.cancel();
    expect(main.destroyed).toBe(false);
    expect(main.duplicates[0]?.destroyed).toBe(true);
    // Never connected: nothing to close.
    await routeRedis().redis.close();
  });

  it('an answer Redis cannot take (away while it is set up): RedisUnavailableError, its lease renewed no more', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const { net, redis } = routeRedis();
    await redis.ready();
    net.down = true;
    const refused = await redis.streams.createNewResumableStream('s', source().make).catch((error) => error);
    expect(refused).toBeInstanceOf(RedisUnavailableError);
    expect(refused.cause).toEqual(new Error('Redis is down'));
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a follower whose lease check finds Redis away fails as if the lease had lapsed', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const { net, redis } = routeRedis();
    const src = source();
    await (await redis.streams.createNewResumableStream('s', src.make))?.cancel();
    const reader = (await redis.streams.resumeExistingStream('s'))?.getReader();
    const next = reader?.read().then(
      () => 'read on',
      (error: Error) => error.message,
    );
    net.down = true;
    await vi.advanceTimersByTimeAsync(1000);
    expect(await next).toBe('the process reading the turn is gone: resume to read it again');
    net.down = false;
    await redis.close();
  });

  it('from a url: its own clients of the redis package; one that cannot connect is refused within 2 s', async () => {
    // Nothing listens on port 1: the connection is refused, and node-redis retries it until the route gives up.
    const redis = new RouteRedis({ url: 'redis://127.0.0.1:1' }, () => {});
    const refused = await redis.ready().catch((error) => error);
    expect(refused).toBeInstanceOf(RedisUnavailableError);
    expect(redis.lastError).toBeInstanceOf(Error);
    await redis.close();
  });
});
