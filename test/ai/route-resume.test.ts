import { describe, expect, it } from 'vitest';
import {
  type ConvoUIMessage,
  createChatRoute,
  messageText,
  type RouteRecordStore,
  type RouteStreams,
} from '../../src/ai/index.js';
import { mockClient } from '../support/mock-client.js';
import {
  expectEndedAsSaved,
  gatedClock,
  listedStreams,
  page,
  reloadMidTurn,
  STEP_MS,
  sharedRecords,
  turnsPass,
  until,
} from './route-support.js';

async function setup() {
  const gate = gatedClock();
  const { mock, client } = mockClient({ clock: gate.clock });
  const { id } = await client.chats.create({});
  const turns = () => mock.store.turns();
  return { gate, mock, client, id, turns };
}

const SLOW = `[[mock:slow ms=${STEP_MS}]] [[mock:words n=8]] tell me`;

describe('createChatRoute: a reload leaves the turn running', () => {
  it('3.2 4.4 a reload mid-turn: resumeStream from a new page follows the rest live and ends with the saved text', async () => {
    const { gate, client, id, turns } = await setup();
    const route = createChatRoute({ client, authorize: 'every-chat-to-every-caller' });
    const { shown, after, resumed } = await reloadMidTurn(gate, id, route.handle, route.handle, SLOW);
    // Live: what was said before the reload arrives while the turn still waits on the gate.
    await until(() => after.text() === shown, 'the replayed start');
    expect(turns()[0]?.status).toBe('pending');
    gate.release(100);
    await resumed;
    expectEndedAsSaved(after, turns);
    expect(after.sent).toEqual([`GET /api/chat/${id}/stream`]);
    // The held answer was read to the turn's end: forgotten, a later resume finds nothing.
    expect((await route.handle(new Request(`http://app.test/api/chat/${id}/stream`))).status).toBe(204);
  });

  it('4.4 once the whole answer was read, a resume finds nothing (204) and sends nothing to the service', async () => {
    const { gate, client, id, turns } = await setup();
    const route = createChatRoute({ client, authorize: 'every-chat-to-every-caller' });
    const first = page(id, route.handle);
    gate.release(100);
    await first.chat.sendMessage({ text: SLOW });
    expect(first.last()?.metadata?.convo?.status).toBe('completed');
    const response = await route.handle(new Request(`http://app.test/api/chat/${id}/stream`));
    expect(response.status).toBe(204);
    expect(turns()).toHaveLength(1);
  });

  it('4.6 stop() cancels the turn on the service, and the next message is accepted', async () => {
    const { gate, client, id, turns } = await setup();
    const route = createChatRoute({ client, authorize: 'every-chat-to-every-caller' });
    const { chat, sent, last } = page(id, route.handle);
    void chat.sendMessage({ text: '[[mock:hang]] wait' }).catch(() => {});
    await until(() => turns()[0]?.status === 'pending' && last()?.role === 'assistant', 'the turn started');
    await chat.stop();
    await until(() => turns()[0]?.status === 'cancelled', 'the turn cancelled on the service');
    expect(sent).toContain(`POST /api/chat/${id}/stop`);
    gate.release(100);
    await chat.sendMessage({ text: 'again' });
    expect(chat.error).toBeUndefined();
    expect(last()?.metadata?.convo?.status).toBe('completed');
    expect(turns().map((turn) => turn.status)).toEqual(['cancelled', 'completed']);
  });

  it('4.6 stop() after the answer ended sends no stop', async () => {
    const { gate, client, id } = await setup();
    const route = createChatRoute({ client, authorize: 'every-chat-to-every-caller' });
    const { chat, sent } = page(id, route.handle);
    gate.release(100);
    await chat.sendMessage({ text: 'hello' });
    await chat.stop();
    expect(sent).toEqual(['POST /api/chat']);
  });

  it('4.6 the route answers a stop once the turn has ended on the service, not when the cancel was delivered', async () => {
    const { client, id, turns } = await setup();
    const route = createChatRoute({ client, authorize: 'every-chat-to-every-caller' });
    const { chat, last } = page(id, route.handle);
    void chat.sendMessage({ text: '[[mock:hang]] wait' }).catch(() => {});
    await until(() => turns()[0]?.status === 'pending' && last()?.role === 'assistant', 'the turn started');
    const answer = await route.handle(new Request(`http://app.test/api/chat/${id}/stop`, { method: 'POST' }));
    expect(await answer.json()).toEqual({ cancelled: true });
    expect(turns()[0]?.status).toBe('cancelled');
  });

  it('4.6 a send right after stop() waits until the stop was answered', async () => {
    const { gate, client, id, turns } = await setup();
    const route = createChatRoute({ client, authorize: 'every-chat-to-every-caller' });
    let answerStop: (() => void) | undefined;
    const held = new Promise<void>((resolve) => {
      answerStop = resolve;
    });
    const { chat, sent, last } = page(id, async (request) => {
      const response = route.handle(request);
      if (request.url.endsWith('/stop')) await held;
      return response;
    });
    gate.release(100);
    void chat.sendMessage({ text: '[[mock:hang]] wait' }).catch(() => {});
    await until(() => turns()[0]?.status === 'pending' && last()?.role === 'assistant', 'the turn started');
    await chat.stop();
    const next = chat.sendMessage({ text: 'again' });
    await until(() => sent.length === 2, 'the stop sent');
    for (let turn = 0; turn < 50; turn++) await new Promise((resolve) => setImmediate(resolve));
    expect(sent).toEqual(['POST /api/chat', `POST /api/chat/${id}/stop`]);
    answerStop?.();
    await next;
    expect(chat.error).toBeUndefined();
    expect(turns().map((turn) => turn.status)).toEqual(['cancelled', 'completed']);
  });

  it('4.4 another process with the same records and no shared streams: the resume reads the turn by its key', async () => {
    const { gate, client, id, turns } = await setup();
    const shared = new Map<string, Parameters<RouteRecordStore['set']>[1]>();
    const records: RouteRecordStore = {
      get: async (chatId) => shared.get(chatId),
      set: async (chatId, record) => shared.set(chatId, record),
      delete: async (chatId) => shared.delete(chatId),
    };
    const one = createChatRoute({ client, authorize: 'every-chat-to-every-caller', records });
    const { streams, held } = listedStreams();
    const two = createChatRoute({ client, authorize: 'every-chat-to-every-caller', records, streams });
    const { after, resumed } = await reloadMidTurn(gate, id, one.handle, two.handle, SLOW);
    gate.release(100);
    await resumed;
    expectEndedAsSaved(after, turns);
    // The read by key is not held: the first process may still hold the turn, and two would feed it.
    expect(held).toEqual([]);
    // Read to its end there, the turn is forgotten: nothing more to resume.
    expect((await two.handle(new Request(`http://app.test/api/chat/${id}/stream`))).status).toBe(204);
  });

  it('4.4 a resume whose turn was forgotten while it looked for the held answer finds nothing (204)', async () => {
    const { gate, client, id } = await setup();
    const records = sharedRecords();
    let look = () => {};
    const looking = new Promise<void>((resolve) => {
      look = resolve;
    });
    const streams: RouteStreams = {
      createNewResumableStream: async () => null,
      resumeExistingStream: async () => {
        await looking;
        return undefined;
      },
    };
    const route = createChatRoute({ client, authorize: 'every-chat-to-every-caller', records, streams });
    const first = page(id, route.handle);
    gate.release(100);
    await first.chat.sendMessage({ text: 'hello' });
    const key = first.last()?.metadata?.convo?.idempotencyKey as string;
    // Its record as a page that reloaded before the end leaves it; then forgotten while the resume looks.
    await records.set(id, { messageId: `convo-${key}`, idempotencyKey: key, body: { content: 'hello' } });
    const resume = route.handle(new Request(`http://app.test/api/chat/${id}/stream`));
    await turnsPass(5);
    await records.delete?.(id);
    // Another request of the chat loads the store's answer: no turn.
    expect(
      (await route.handle(new Request(`http://app.test/api/chat/${id}/stop`, { method: 'POST' }))).status,
    ).toBe(200);
    look();
    const response = await resume;
    expect(response.status).toBe(204);
    expect(response.body).toBeNull();
  });

  it('2.6 a tool approval on the route: answered from the page, the same message goes on', async () => {
    const { gate, client, id, turns } = await setup();
    const route = createChatRoute({ client, authorize: 'every-chat-to-every-caller' });
    const { chat, last } = page(id, route.handle);
    gate.release(100);
    await chat.sendMessage({ text: '[[mock:tool_approval]] look it up' });
    const asking = last()?.parts.find((part) => part.type === 'dynamic-tool');
    if (asking?.type !== 'dynamic-tool' || asking.state !== 'approval-requested')
      throw new Error('no approval');
    await chat.addToolApprovalResponse({ id: asking.approval.id, approved: true });
    await until(() => last()?.metadata?.convo?.status === 'completed', 'the turn completed');
    expect(chat.messages).toHaveLength(2);
    expect(messageText(last() as ConvoUIMessage)).toBe(turns()[0]?.content);
  });

  it('2.6 4.4 a continuation is held under its turn key; one whose record names another turn of the chat is not held as that turn', async () => {
    const { gate, client, id, turns } = await setup();
    const records = sharedRecords();
    const { streams, held } = listedStreams();
    const route = createChatRoute({ client, authorize: 'every-chat-to-every-caller', records, streams });
    const { chat, last } = page(id, route.handle);
    gate.release(1000);
    const approve = async () => {
      const asking = last()?.parts.find((part) => part.type === 'dynamic-tool');
      if (asking?.type !== 'dynamic-tool' || asking.state !== 'approval-requested')
        throw new Error('no approval');
      await chat.addToolApprovalResponse({ id: asking.approval.id, approved: true });
      await until(() => last()?.metadata?.convo?.status === 'completed', 'the turn completed');
    };
    // A user's message carrying a key names no turn: only the assistant's message a continuation answers does.
    await chat.sendMessage({
      text: '[[mock:tool_approval]] look it up',
      metadata: { convo: { idempotencyKey: crypto.randomUUID() } } as never,
    });
    const first = last()?.metadata?.convo?.idempotencyKey;
    expect(held).toEqual([`convo:${id}:${first}`]);
    await approve();
    // The continuation is the recorded turn's: held again under its key.
    expect(held).toEqual([`convo:${id}:${first}`, `convo:${id}:${first}`]);

    await chat.sendMessage({ text: '[[mock:tool_approval]] look it up again' });
    const second = last()?.metadata?.convo?.idempotencyKey;
    expect(held).toHaveLength(3);
    // Another turn of the chat recorded since (as another process would): the continuation of this one is
    // answered, not held under the other turn's key, nor under its own, which the record no longer names.
    const other = {
      messageId: 'convo-other',
      idempotencyKey: crypto.randomUUID(),
      body: { content: 'other' },
    };
    await records.set(id, other);
    await approve();
    expect(held).toEqual([`convo:${id}:${first}`, `convo:${id}:${first}`, `convo:${id}:${second}`]);
    expect(await records.get(id)).toEqual(other);
    // No record of the chat left (the store lost it): the continuation is answered, not held.
    await chat.sendMessage({ text: '[[mock:tool_approval]] and once more' });
    expect(held).toHaveLength(4);
    await records.delete?.(id);
    await approve();
    expect(held).toHaveLength(4);
    expect(turns().map((turn) => turn.status)).toEqual(['completed', 'completed', 'completed']);
  });
});
