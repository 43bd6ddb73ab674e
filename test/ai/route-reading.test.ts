import { describe, expect, it } from 'vitest';
import {
  createChatRoute,
  memoryStreams,
  type RouteRecord,
  type RouteRecordStore,
} from '../../src/ai/index.js';
import { FakeNet, FakeRedis } from '../support/fake-redis.js';
import { mockClient } from '../support/mock-client.js';
import { gatedClock, page, sendRequest as send, turnsPass, until } from './route-support.js';

const API = 'http://app.test/api/chat';
const HANG = '[[mock:hang]] wait';

/** A shared record store that can go away (a Redis down): every call then fails. */
function failingRecords() {
  const map = new Map<string, RouteRecord>();
  let away = false;
  const check = () => {
    if (away) throw new Error('the store is away');
  };
  const records: RouteRecordStore = {
    get: async (chatId) => {
      check();
      return map.get(chatId);
    },
    set: async (chatId, record) => {
      check();
      map.set(chatId, record);
    },
    delete: async (chatId) => {
      check();
      map.delete(chatId);
    },
  };
  return { records, map, away: (on: boolean) => (away = on) };
}

async function setup() {
  const gate = gatedClock();
  const { mock, client } = mockClient({ clock: gate.clock });
  const { id } = await client.chats.create({});
  return { gate, mock, client, id, turns: () => mock.store.turns() };
}

const resume = (id: string) => new Request(`${API}/${id}/stream`);

describe('createChatRoute: while the shared records are away, only a turn read here is trusted', () => {
  it('4.4 the record of the turn this process reads answers a resume with the held answer', async () => {
    const { mock, client, id } = await setup();
    const store = failingRecords();
    const route = createChatRoute({
      client,
      authorize: 'every-chat-to-every-caller',
      records: store.records,
    });
    const before = page(id, route.handle);
    void before.chat.sendMessage({ text: HANG }).catch(() => {});
    await until(
      () => mock.store.turns()[0]?.status === 'pending' && before.last()?.role === 'assistant',
      'the turn started',
    );
    store.away(true);
    const response = await route.handle(resume(id));
    expect(response.status).toBe(200);
    await response.body?.cancel();
    store.away(false);
    await before.chat.stop();
  });

  it('4.4 the record of a turn that ended here (its answer never delivered) may be stale: a resume finds nothing', async () => {
    const { gate, client, id, turns } = await setup();
    const store = failingRecords();
    const route = createChatRoute({
      client,
      authorize: 'every-chat-to-every-caller',
      records: store.records,
    });
    gate.release(100);
    // The page went before the answer was read: the route reads it to its end all the same.
    const answer = await route.handle(send(id, 'hello'));
    expect(answer.status).toBe(200);
    await until(() => store.map.get(id)?.ended === true, 'the turn ended');
    await turnsPass(20);
    store.away(true);
    const response = await route.handle(resume(id));
    expect(response.status).toBe(204);
    expect(turns()).toHaveLength(1);
    await answer.body?.cancel();
  });

  it('4.4 a send whose answer could not be held reads nothing: its record is not trusted while the store is away', async () => {
    const { client, id, turns } = await setup();
    const store = failingRecords();
    const route = createChatRoute({
      client,
      authorize: 'every-chat-to-every-caller',
      records: store.records,
      streams: memoryStreams(0),
    });
    const refused = await route.handle(send(id, HANG));
    expect(refused.status).toBe(503);
    expect(turns()).toHaveLength(0);
    store.away(true);
    const response = await route.handle(resume(id));
    expect(response.status).toBe(204);
    expect(turns()).toHaveLength(0);
  });
});

describe('createChatRoute: a Redis that restarted empty', () => {
  it('4.4 once reconnected, the route writes again the record of the turn whose answer it reads, not of a read paused at an approval', async () => {
    const gate = gatedClock();
    const { mock, client } = mockClient({ clock: gate.clock });
    const [live, paused] = await Promise.all([client.chats.create({}), client.chats.create({})]);
    const liveId = live?.id as string;
    const pausedId = paused?.id as string;
    const net = new FakeNet();
    const main = new FakeRedis(net);
    main.isReady = true;
    const route = createChatRoute({
      client,
      authorize: 'every-chat-to-every-caller',
      redis: { client: main },
    });
    const record = (chatId: string) => net.data.get(`convo-route:record:${chatId}`);
    gate.release(1000);
    const asking = page(pausedId, route.handle);
    await asking.chat.sendMessage({ text: '[[mock:tool_approval]] look it up' });
    const reading = page(liveId, route.handle);
    void reading.chat.sendMessage({ text: HANG }).catch(() => {});
    await until(
      () =>
        mock.store.turns().some((turn) => turn.chat_id === liveId && turn.status === 'pending') &&
        reading.last()?.role === 'assistant',
      'the turn started',
    );
    expect(record(liveId)).toBeDefined();
    expect(record(pausedId)).toBeDefined();
    // Redis restarted empty; the client is ready again.
    net.data.clear();
    main.emit('ready');
    await until(() => record(liveId) !== undefined, 'the record written again');
    await turnsPass(20);
    const again = JSON.parse(record(liveId) as string) as { idempotencyKey: string };
    expect(again.idempotencyKey).toBe(reading.last()?.metadata?.convo?.idempotencyKey);
    // The paused read's turn may have gone on through another process: its record is not written again.
    expect(record(pausedId)).toBeUndefined();
    await reading.chat.stop();
    await route.close();
  });
});
