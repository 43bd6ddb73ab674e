import { describe, expect, it } from 'vitest';
import type { RouteRecord, RouteRecordStore } from '../../src/ai/index.js';
import { RouteRecords } from '../../src/ai/route-records.js';

const record = (key: string): RouteRecord => ({
  messageId: `convo-${key}`,
  idempotencyKey: key,
  body: { content: 'hi' },
});

function sharedStore() {
  const map = new Map<string, RouteRecord>();
  let failing = false;
  const store: RouteRecordStore = {
    get: async (chatId) => {
      if (failing) throw new Error('away');
      return map.get(chatId);
    },
    set: async (chatId, value) => {
      if (failing) throw new Error('away');
      map.set(chatId, value);
    },
    delete: async (chatId) => {
      if (failing) throw new Error('away');
      map.delete(chatId);
    },
  };
  return { store, map, fail: (on: boolean) => (failing = on) };
}

describe('RouteRecords: one record store for the route and its transport', () => {
  it("the transport's delete marks the turn ended (a reload before the end still reads it); delivered then forgets it", async () => {
    const records = new RouteRecords();
    records.transport.set('c', record('k1'));
    records.transport.delete?.('c');
    expect(await records.load('c')).toEqual({ ...record('k1'), ended: true });
    await records.delivered('c', 'k1');
    expect(await records.load('c')).toBeUndefined();
  });

  it('delivered forgets nothing of a turn not ended (paused at an approval) or of another key', async () => {
    const records = new RouteRecords();
    records.keep('c', record('k1'));
    await records.delivered('c', 'k1');
    expect((await records.load('c'))?.idempotencyKey).toBe('k1');
    records.keep('c', { ...record('k2'), ended: true });
    await records.delivered('c', 'k1');
    expect((await records.load('c'))?.idempotencyKey).toBe('k2');
    await records.forget('c', 'k1');
    expect((await records.load('c'))?.idempotencyKey).toBe('k2');
    await records.forget('c', 'k2');
    expect(await records.load('c')).toBeUndefined();
  });

  it("the transport's delete of a chat it has no record of writes nothing", async () => {
    const { store, map } = sharedStore();
    const records = new RouteRecords(store);
    records.transport.delete?.('c');
    await records.settled('c');
    expect(map.size).toBe(0);
    expect(await records.load('c')).toBeUndefined();
  });

  it('written through to the shared store, which is the authority: another process sees the later turn', async () => {
    const { store, map } = sharedStore();
    const one = new RouteRecords(store);
    const two = new RouteRecords(store);
    one.keep('c', record('k1'));
    await one.settled('c');
    expect(map.get('c')?.idempotencyKey).toBe('k1');
    expect((await two.load('c'))?.idempotencyKey).toBe('k1');
    two.keep('c', record('k2'));
    await two.settled('c');
    expect((await one.load('c'))?.idempotencyKey).toBe('k2');
    expect(one.transport.get('c')?.idempotencyKey).toBe('k2');
    await two.forget('c', 'k2');
    expect(await one.load('c')).toBeUndefined();
    expect(one.transport.get('c')).toBeUndefined();
  });

  it('a shared store that fails: what this process knows of a turn it reads answers, and writes are left for later', async () => {
    const shared = sharedStore();
    const records = new RouteRecords(shared.store, (chatId, key) => chatId === 'c' && key === 'k2');
    records.keep('c', record('k1'));
    await records.settled('c');
    shared.fail(true);
    records.keep('c', record('k2'));
    await records.settled('c');
    expect((await records.load('c'))?.idempotencyKey).toBe('k2');
    expect(shared.map.get('c')?.idempotencyKey).toBe('k1');
    // A record of a turn this process no longer reads may be stale: none is better than an old turn.
    records.keep('d', record('k3'));
    expect(await records.load('d')).toBeUndefined();
  });

  it('writes land in order: a read waits for those on their way', async () => {
    const map = new Map<string, RouteRecord>();
    const release: Array<() => void> = [];
    const store: RouteRecordStore = {
      get: async (chatId) => map.get(chatId),
      set: (chatId, value) =>
        new Promise<void>((resolve) =>
          release.push(() => {
            map.set(chatId, value);
            resolve();
          }),
        ),
    };
    const records = new RouteRecords(store);
    records.keep('c', record('k1'));
    records.keep('c', record('k2'));
    const loaded = records.load('c');
    for (let turn = 0; turn < 10; turn++) {
      release.shift()?.();
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect((await loaded)?.idempotencyKey).toBe('k2');
  });

  it('keeps the last turns of at most MAX_RECORDS chats here, the least recently used forgotten first', async () => {
    const records = new RouteRecords();
    records.keep('first', record('k0'));
    for (let n = 0; n < 1000; n++) records.keep(`chat-${n}`, record(`k${n}`));
    expect(records.transport.get('first')).toBeUndefined();
    expect(records.transport.get('chat-0')?.idempotencyKey).toBe('k0');
    // Read last, chat-0 is now the most recently used: one more forgets chat-1.
    records.keep('one-more', record('x'));
    expect(records.transport.get('chat-0')).toBeDefined();
    expect(records.transport.get('chat-1')).toBeUndefined();
  });
});
