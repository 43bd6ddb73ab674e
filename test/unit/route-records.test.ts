import { describe, expect, it } from 'vitest';
import type { RouteRecord, RouteRecordStore } from '../../src/ai/index.js';
import { MAX_RECORDS } from '../../src/ai/records.js';
import { RouteRecords } from '../../src/ai/route-records.js';

const record = (key: string): RouteRecord => ({
  messageId: `convo-${key}`,
  idempotencyKey: key,
  body: { content: 'hi' },
});

/** A shared store whose calls the test sees, and which fails while `failing` is on. */
function sharedStore() {
  const map = new Map<string, RouteRecord>();
  const calls: string[] = [];
  const state = { failing: false };
  const store: RouteRecordStore = {
    get: async (chatId) => {
      calls.push(`get ${chatId}`);
      if (state.failing) throw new Error('away');
      return map.get(chatId);
    },
    set: async (chatId, value) => {
      calls.push(`set ${chatId} ${value.idempotencyKey}`);
      if (state.failing) throw new Error('away');
      map.set(chatId, value);
    },
    delete: async (chatId) => {
      calls.push(`delete ${chatId}`);
      if (state.failing) throw new Error('away');
      map.delete(chatId);
    },
  };
  return { store, map, calls, state };
}

/** A promise the test settles. */
function deferred() {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<void>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject };
}

/** Whether `promise` settled once the microtasks queued now have run. */
async function settledNow(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(
    () => (done = true),
    () => (done = true),
  );
  for (let turn = 0; turn < 20; turn++) await Promise.resolve();
  return done;
}

/** Fills a store with `MAX_RECORDS` chats, `chat-0` the oldest. */
function fill(records: RouteRecords): void {
  for (let index = 0; index < MAX_RECORDS; index++) records.keep(`chat-${index}`, record(`k${index}`));
}

describe('RouteRecords: the local records, least recently used forgotten first', () => {
  it('holds exactly MAX_RECORDS chats; one more forgets the least recently used', async () => {
    const records = new RouteRecords();
    fill(records);
    expect(records.transport.get('chat-0')).toEqual(record('k0'));
    // Reading chat-0 made chat-1 the least recently used.
    records.keep('extra', record('x'));
    expect(records.transport.get('chat-1')).toBeUndefined();
    expect(records.transport.get('chat-0')).toEqual(record('k0'));
    expect(records.transport.get('extra')).toEqual(record('x'));
  });

  it('keeping a chat again makes it the most recently used', async () => {
    const records = new RouteRecords();
    fill(records);
    records.keep('chat-0', record('again'));
    records.keep('extra', record('x'));
    expect(records.transport.get('chat-0')).toEqual(record('again'));
    expect(records.transport.get('chat-1')).toBeUndefined();
  });

  it('load without a shared store reads the local record and makes it the most recently used', async () => {
    const records = new RouteRecords();
    fill(records);
    expect(await records.load('chat-0')).toEqual(record('k0'));
    records.keep('extra', record('x'));
    expect(await records.load('chat-0')).toEqual(record('k0'));
    expect(await records.load('chat-1')).toBeUndefined();
  });

  it("a transport's set is kept as the chat's record; its get of an unknown chat is undefined", () => {
    const records = new RouteRecords();
    expect(records.transport.get('c')).toBeUndefined();
    records.transport.set('c', record('k1'));
    expect(records.transport.get('c')).toEqual(record('k1'));
  });

  it("the transport's delete of an unknown chat keeps nothing", async () => {
    const { store, calls } = sharedStore();
    const records = new RouteRecords(store);
    records.transport.delete?.('c');
    await records.settled('c');
    expect(records.transport.get('c')).toBeUndefined();
    expect(calls).toEqual([]);
  });
});

describe('RouteRecords: the shared store is the authority, cached here', () => {
  it("load keeps the shared store's record here: while the store is away the process still answers with it", async () => {
    const { store, map, state } = sharedStore();
    const records = new RouteRecords(store);
    map.set('c', record('elsewhere'));
    expect(await records.load('c')).toEqual(record('elsewhere'));
    expect(records.transport.get('c')).toEqual(record('elsewhere'));
    state.failing = true;
    expect(await records.load('c')).toEqual(record('elsewhere'));
  });

  it('a chat the shared store does not know is forgotten here: load is undefined even once the store is away', async () => {
    const { store, map, state } = sharedStore();
    const records = new RouteRecords(store);
    records.keep('c', record('k1'));
    await records.settled('c');
    // Another process forgot it.
    map.delete('c');
    expect(await records.load('c')).toBeUndefined();
    expect(records.transport.get('c')).toBeUndefined();
    state.failing = true;
    expect(await records.load('c')).toBeUndefined();
  });

  it("load's caching makes the shared record the most recently used here", async () => {
    const { store, map } = sharedStore();
    const records = new RouteRecords(store);
    fill(records);
    for (let index = 0; index < MAX_RECORDS; index++) await records.settled(`chat-${index}`);
    map.set('chat-0', record('shared'));
    await records.load('chat-0');
    records.keep('extra', record('x'));
    expect(records.transport.get('chat-0')).toEqual(record('shared'));
    expect(records.transport.get('chat-1')).toBeUndefined();
  });

  it('while the shared store is away, a local record answers only for a turn this process reads (asked by chat and key)', async () => {
    const { store, state } = sharedStore();
    const asked: string[] = [];
    let reading = true;
    const records = new RouteRecords(store, (chatId, key) => {
      asked.push(`${chatId} ${key}`);
      return reading;
    });
    records.keep('c', record('k1'));
    await records.settled('c');
    state.failing = true;
    expect(await records.load('c')).toEqual(record('k1'));
    reading = false;
    expect(await records.load('c')).toBeUndefined();
    expect(asked).toEqual(['c k1', 'c k1']);
    // A chat this process knows nothing of answers undefined without asking.
    expect(await records.load('other')).toBeUndefined();
    expect(asked).toHaveLength(2);
  });

  it('by default every local record answers while the shared store is away', async () => {
    const { store, state } = sharedStore();
    const records = new RouteRecords(store);
    state.failing = true;
    records.keep('c', record('k1'));
    expect(await records.load('c')).toEqual(record('k1'));
  });

  it('a shared write that fails leaves settled and load resolving', async () => {
    const { store, state } = sharedStore();
    const records = new RouteRecords(store);
    state.failing = true;
    records.keep('c', record('k1'));
    await expect(records.settled('c')).resolves.toBeUndefined();
    state.failing = false;
    expect(await records.load('c')).toBeUndefined();
  });

  it('writes land in order, each after the one before; settled waits for the last, even once an earlier one landed', async () => {
    const landed: string[] = [];
    const gates = new Map<string, ReturnType<typeof deferred>>();
    const store: RouteRecordStore = {
      get: () => undefined,
      set: (_chatId, value) => {
        const gate = deferred();
        gates.set(value.idempotencyKey, gate);
        return gate.promise.then(() => landed.push(value.idempotencyKey));
      },
    };
    const records = new RouteRecords(store);
    records.keep('c', record('k1'));
    records.keep('c', record('k2'));
    await settledNow(Promise.resolve());
    // The second waits for the first before it is even sent.
    expect([...gates.keys()]).toEqual(['k1']);
    gates.get('k1')?.resolve();
    await settledNow(Promise.resolve());
    expect(landed).toEqual(['k1']);
    expect([...gates.keys()]).toEqual(['k1', 'k2']);
    const waiting = records.settled('c');
    expect(await settledNow(waiting)).toBe(false);
    gates.get('k2')?.resolve();
    expect(await settledNow(waiting)).toBe(true);
    expect(landed).toEqual(['k1', 'k2']);
  });

  it('a failed write does not stop the next one of the chat', async () => {
    const { store, state, map } = sharedStore();
    const records = new RouteRecords(store);
    state.failing = true;
    records.keep('c', record('k1'));
    state.failing = false;
    await settledNow(Promise.resolve());
    records.keep('c', record('k2'));
    await records.settled('c');
    expect(map.get('c')).toEqual(record('k2'));
  });

  it('writes of other chats do not wait for each other', async () => {
    const gate = deferred();
    const sets: string[] = [];
    const store: RouteRecordStore = {
      get: () => undefined,
      set: (chatId) => {
        sets.push(chatId);
        return chatId === 'slow' ? gate.promise : undefined;
      },
    };
    const records = new RouteRecords(store);
    records.keep('slow', record('k1'));
    records.keep('fast', record('k2'));
    expect(await settledNow(records.settled('fast'))).toBe(true);
    expect(await settledNow(records.settled('slow'))).toBe(false);
    gate.resolve();
    expect(await settledNow(records.settled('slow'))).toBe(true);
    expect(sets).toEqual(['slow', 'fast']);
  });
});

describe('RouteRecords: the local bound holds for every way a record comes here', () => {
  it('a record loaded from the shared store past MAX_RECORDS forgets the least recently used here', async () => {
    const { store, map } = sharedStore();
    const records = new RouteRecords(store);
    fill(records);
    map.set('remote', record('r'));
    expect(await records.load('remote')).toEqual(record('r'));
    expect(records.transport.get('chat-0')).toBeUndefined();
    expect(records.transport.get('chat-1')).toEqual(record('k1'));
  });

  it('a chat unknown here and in the shared store takes no place here', async () => {
    const { store } = sharedStore();
    const records = new RouteRecords(store);
    fill(records);
    expect(await records.load('ghost')).toBeUndefined();
    expect(records.transport.get('other ghost')).toBeUndefined();
    expect(await new RouteRecords().load('ghost')).toBeUndefined();
    records.keep('extra', record('x'));
    expect(records.transport.get('chat-0')).toBeUndefined();
    expect(records.transport.get('chat-1')).toEqual(record('k1'));
  });

  it('a chat unknown here, read without a shared store, takes no place here', async () => {
    const records = new RouteRecords();
    fill(records);
    expect(await records.load('ghost')).toBeUndefined();
    expect(records.transport.get('other ghost')).toBeUndefined();
    records.keep('extra', record('x'));
    expect(records.transport.get('chat-0')).toBeUndefined();
    expect(records.transport.get('chat-1')).toEqual(record('k1'));
  });

  it('without a shared store, a record answers whether or not this process reads its turn', async () => {
    const records = new RouteRecords(undefined, () => false);
    records.keep('c', record('k1'));
    expect(await records.load('c')).toEqual(record('k1'));
  });
});

describe('RouteRecords: forget and delivered', () => {
  it('forget of the current key deletes it here and in the shared store, and resolves once the delete landed', async () => {
    const gate = deferred();
    const map = new Map<string, RouteRecord>();
    const store: RouteRecordStore = {
      get: (chatId) => map.get(chatId),
      set: (chatId, value) => void map.set(chatId, value),
      delete: (chatId) => gate.promise.then(() => map.delete(chatId)),
    };
    const records = new RouteRecords(store);
    records.keep('c', record('k1'));
    const forgetting = records.forget('c', 'k1');
    expect(await settledNow(forgetting)).toBe(false);
    expect(records.transport.get('c')).toBeUndefined();
    gate.resolve();
    await forgetting;
    expect(map.has('c')).toBe(false);
  });

  it('forget of another key forgets nothing, here or in the shared store', async () => {
    const { store, calls, map } = sharedStore();
    const records = new RouteRecords(store);
    records.keep('c', record('k2'));
    await records.forget('c', 'k1');
    expect(records.transport.get('c')).toEqual(record('k2'));
    expect(map.get('c')).toEqual(record('k2'));
    expect(calls.filter((call) => call.startsWith('delete'))).toEqual([]);
  });

  it('forget without a shared store deletes the local record', async () => {
    const records = new RouteRecords();
    records.keep('c', record('k1'));
    await records.forget('c', 'k1');
    expect(records.transport.get('c')).toBeUndefined();
    expect(await records.load('c')).toBeUndefined();
  });

  it('forget of a shared store without delete forgets it here', async () => {
    const map = new Map<string, RouteRecord>();
    const store: RouteRecordStore = {
      get: () => undefined,
      set: (chatId, value) => void map.set(chatId, value),
    };
    const records = new RouteRecords(store);
    records.keep('c', record('k1'));
    records.transport.get('c');
    await records.settled('c');
    await expect(records.forget('c', 'k1')).resolves.toBeUndefined();
  });

  it('delivered forgets an ended turn of its key, in the shared store too', async () => {
    const { store, map } = sharedStore();
    const records = new RouteRecords(store);
    records.keep('c', { ...record('k1'), ended: true });
    await records.delivered('c', 'k1');
    expect(map.has('c')).toBe(false);
    expect(records.transport.get('c')).toBeUndefined();
  });

  it('delivered of a chat with no record does nothing', async () => {
    const { store, calls } = sharedStore();
    const records = new RouteRecords(store);
    await expect(records.delivered('c', 'k1')).resolves.toBeUndefined();
    expect(calls).toEqual(['get c']);
  });

  it('delivered reads the shared store once', async () => {
    const { store, calls } = sharedStore();
    const records = new RouteRecords(store);
    records.keep('c', { ...record('k1'), ended: true });
    await records.delivered('c', 'k1');
    expect(calls).toEqual(['set c k1', 'get c', 'delete c']);
  });

  it('delivered keeps a turn not ended, and an ended turn of another key', async () => {
    const { store, map } = sharedStore();
    const records = new RouteRecords(store);
    records.keep('c', record('k1'));
    await records.delivered('c', 'k1');
    expect(map.get('c')).toEqual(record('k1'));
    records.keep('c', { ...record('k2'), ended: true });
    await records.delivered('c', 'k1');
    expect(map.get('c')).toEqual({ ...record('k2'), ended: true });
  });

  it("the transport's delete marks the record ended, here and in the shared store", async () => {
    const { store, map } = sharedStore();
    const records = new RouteRecords(store);
    records.transport.set('c', record('k1'));
    records.transport.delete?.('c');
    await records.settled('c');
    expect(records.transport.get('c')).toEqual({ ...record('k1'), ended: true });
    expect(map.get('c')).toEqual({ ...record('k1'), ended: true });
  });
});
