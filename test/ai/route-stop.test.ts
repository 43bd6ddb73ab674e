import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConvoChatTransport, createChatRoute } from '../../src/ai/index.js';
import type { TurnStream } from '../../src/index.js';
import { mockClient } from '../support/mock-client.js';
import {
  gatedClock,
  lateCancelClient,
  openingClient,
  openingOnTwo,
  page,
  sharedRecords,
  stopRequest,
  turnsPass,
  until,
} from './route-support.js';

const _API = 'http://app.test/api/chat';
const HANG = '[[mock:hang]] wait';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('createChatRoute: a stop ends the turn before it answers', () => {
  it('4.6 a stop pressed while the route is still opening the turn cancels it once it starts; the next send is accepted', async () => {
    const gate = gatedClock();
    const { mock, client, open, reached } = openingClient(gate.clock);
    const { id } = await client.chats.create({});
    const turns = () => mock.store.turns();
    const route = createChatRoute({ client, authorize: 'every-chat-to-every-caller' });
    const { chat, sent, last } = page(id, route.handle);
    void chat.sendMessage({ text: HANG }).catch(() => {});
    await until(reached, 'the turn being opened');
    await chat.stop();
    await until(() => sent.includes(`POST /api/chat/${id}/stop`), 'the stop sent');
    await turnsPass(50);
    // Nothing reached the service yet: the stop waits for the turn it will cancel.
    expect(turns()).toHaveLength(0);
    open();
    gate.release(100);
    await chat.sendMessage({ text: 'again' });
    expect(chat.error).toBeUndefined();
    expect(last()?.metadata?.convo?.status).toBe('completed');
    expect(turns().map((turn) => turn.status)).toEqual(['cancelled', 'completed']);
  });

  it('4.6 the stop of a turn still opening answers cancelled: true, once the turn has ended', async () => {
    const gate = gatedClock();
    const { mock, client, open, reached } = openingClient(gate.clock);
    const { id } = await client.chats.create({});
    const route = createChatRoute({ client, authorize: 'every-chat-to-every-caller' });
    const { chat } = page(id, route.handle);
    void chat.sendMessage({ text: HANG }).catch(() => {});
    await until(reached, 'the turn being opened');
    const cancel = vi.spyOn(client.turns, 'cancel');
    let answered = false;
    const answer = route.handle(stopRequest(id)).finally(() => {
      answered = true;
    });
    await turnsPass(50);
    expect(answered).toBe(false);
    // The turn is read here: cancelled through its stream once it starts, the service not asked before.
    expect(cancel).not.toHaveBeenCalled();
    open();
    expect(await (await answer).json()).toEqual({ cancelled: true });
    expect(mock.store.turns()[0]?.status).toBe('cancelled');
    expect(cancel).toHaveBeenCalledTimes(1);
  });

  it('4.6 another process without shared streams answers a stop once the turn has ended on the service, not when the cancel was delivered', async () => {
    const gate = gatedClock();
    const { mock, client, deliver, asked } = lateCancelClient(gate.clock);
    const { id } = await client.chats.create({});
    const turns = () => mock.store.turns();
    const records = sharedRecords();
    const one = createChatRoute({ client, authorize: 'every-chat-to-every-caller', records });
    const two = createChatRoute({ client, authorize: 'every-chat-to-every-caller', records });
    const before = page(id, one.handle);
    void before.chat.sendMessage({ text: HANG }).catch(() => {});
    await until(
      () => turns()[0]?.status === 'pending' && before.last()?.role === 'assistant',
      'the turn started',
    );
    let answered = false;
    const answer = two.handle(stopRequest(id)).finally(() => {
      answered = true;
    });
    await until(() => asked() > 0, 'the cancel delivered');
    await turnsPass(50);
    expect(answered).toBe(false);
    await deliver();
    expect(await (await answer).json()).toEqual({ cancelled: true });
    expect(turns()[0]?.status).toBe('cancelled');
    // The page's next send, through the other process, finds the chat free.
    gate.release(100);
    const after = page(id, two.handle);
    await after.chat.sendMessage({ text: 'again' });
    expect(after.chat.error).toBeUndefined();
    expect(turns().map((turn) => turn.status)).toEqual(['cancelled', 'completed']);
  });

  it('4.4 4.6 a stop reaching another process while the first is still opening the turn: the turn is cancelled, never run', async () => {
    const { mock, open, id, two, chat } = await openingOnTwo();
    const answer = await two.handle(stopRequest(id));
    expect(await answer.json()).toEqual({ cancelled: true });
    open();
    await until(() => chat.status === 'ready' || chat.status === 'error', 'the first answer ended');
    // One turn under the key (the held open replays it), and it was cancelled.
    expect(mock.store.turns().map((turn) => turn.status)).toEqual(['cancelled']);
  });

  it('Chat.dispose() cancels the turn as stop() does (a page unload runs no JavaScript and leaves it running)', async () => {
    const gate = gatedClock();
    const { mock, client } = mockClient({ clock: gate.clock });
    const { id } = await client.chats.create({});
    const turns = () => mock.store.turns();
    const route = createChatRoute({ client, authorize: 'every-chat-to-every-caller' });
    const { chat, sent, last } = page(id, route.handle);
    void chat.sendMessage({ text: HANG }).catch(() => {});
    await until(() => turns()[0]?.status === 'pending' && last()?.role === 'assistant', 'the turn started');
    await chat.dispose();
    await until(() => turns()[0]?.status === 'cancelled', 'the turn cancelled on the service');
    expect(sent).toEqual(['POST /api/chat', `POST /api/chat/${id}/stop`]);
  });

  it('4.4 ConvoChatTransport tells opened of each turn stream it makes (a send, its resume), before anything is sent', async () => {
    const { mock, client } = mockClient();
    const { id } = await client.chats.create({});
    const told: Array<[string, TurnStream]> = [];
    const transport = new ConvoChatTransport({
      client,
      opened: (chatId, stream) => told.push([chatId, stream]),
    });
    const ui = await transport.sendMessages({
      chatId: id,
      trigger: 'submit-message',
      messageId: undefined,
      messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'hello' }] }],
      abortSignal: undefined,
    });
    const again = await transport.reconnectToStream({ chatId: id });
    const [first, second] = told.map(([, stream]) => stream);
    expect(told.map(([chatId]) => chatId)).toEqual([id, id]);
    // The resume reads the same turn: the same key.
    expect(second?.idempotencyKey).toBe(first?.idempotencyKey);
    expect(mock.store.turns()).toHaveLength(0);
    await ui.cancel();
    await again?.cancel();
  });

  it('4.6 a stop of a turn read here whose record is gone (a shared store that restarted empty) cancels it through its stream', async () => {
    const gate = gatedClock();
    const { mock, client } = mockClient({ clock: gate.clock });
    const { id } = await client.chats.create({});
    const records = sharedRecords();
    const route = createChatRoute({ client, authorize: 'every-chat-to-every-caller', records });
    const { chat, last } = page(id, route.handle);
    void chat.sendMessage({ text: HANG }).catch(() => {});
    await until(
      () => mock.store.turns()[0]?.status === 'pending' && last()?.role === 'assistant',
      'the turn started',
    );
    await records.delete?.(id);
    expect(await (await route.handle(stopRequest(id))).json()).toEqual({ cancelled: true });
    expect(mock.store.turns().map((turn) => turn.status)).toEqual(['cancelled']);
  });

  it('2.6 4.6 a stop reaching a process whose read paused at an approval answered elsewhere cancels the turn the record names', async () => {
    const gate = gatedClock();
    const { mock, client } = mockClient({ clock: gate.clock });
    const { id } = await client.chats.create({});
    const turns = () => mock.store.turns();
    const records = sharedRecords();
    const one = createChatRoute({ client, authorize: 'every-chat-to-every-caller', records });
    const two = createChatRoute({ client, authorize: 'every-chat-to-every-caller', records });
    gate.release(1000);
    // The first turn pauses at its approval, read by the first process.
    const before = page(id, one.handle);
    await before.chat.sendMessage({ text: '[[mock:tool_approval]] look it up' });
    // The approval is answered elsewhere (the turn ends), and the next turn is sent through the second process.
    const asking = before.last()?.parts.find((part) => part.type === 'dynamic-tool');
    if (asking?.type !== 'dynamic-tool' || asking.state !== 'approval-requested')
      throw new Error('no approval');
    const action_id = asking.callProviderMetadata?.convo?.actionId as string;
    await client.actions.approveTool(id, {
      action_id,
      decisions: [{ tool_use_id: asking.toolCallId, approved: true }],
    });
    await until(() => turns()[0]?.status === 'completed', 'the first turn completed');
    const after = page(id, two.handle);
    void after.chat.sendMessage({ text: HANG }).catch(() => {});
    await until(() => turns()[1]?.status === 'pending', 'the second turn started');
    // The stop reaches the first process, which still reads the first turn's paused read: the second is stopped.
    expect(await (await one.handle(stopRequest(id))).json()).toEqual({ cancelled: true });
    expect(turns().map((turn) => turn.status)).toEqual(['completed', 'cancelled']);
  });
});
