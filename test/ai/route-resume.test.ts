import { describe, expect, it } from 'vitest';
import {
  type ConvoUIMessage,
  createChatRoute,
  messageText,
  type RouteRecordStore,
} from '../../src/ai/index.js';
import { mockClient } from '../support/mock-client.js';
import { expectEndedAsSaved, gatedClock, page, reloadMidTurn, STEP_MS, until } from './route-support.js';

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
    const two = createChatRoute({ client, authorize: 'every-chat-to-every-caller', records });
    const { after, resumed } = await reloadMidTurn(gate, id, one.handle, two.handle, SLOW);
    gate.release(100);
    await resumed;
    expectEndedAsSaved(after, turns);
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
});
