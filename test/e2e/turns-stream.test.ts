import { expect } from 'vitest';
import { ApiError, TurnError, type TurnStreamEvent } from '../../src/index.js';
import { collect } from '../support/collect.js';
import { printed } from '../support/turn-wire.js';
import { type Case, needsInProcessMock, runOnTargets } from './run-targets.js';

const newChatId = () => crypto.randomUUID();

const cases: Case[] = [
  [
    '6 message.start comes first, then deltas, then exactly one terminal event; the text is the answer',
    async (t) => {
      const chatId = newChatId();
      const stream = t.client().turns.stream(chatId, { content: '[[mock:words n=5]]' });
      const events = await collect(stream);
      expect(events[0]).toMatchObject({ type: 'start', chat_id: chatId });
      expect(events.filter((e) => e.type === 'delta')).toHaveLength(5);
      expect(
        events.filter((e) => e.type === 'completed' || e.type === 'cancelled' || e.type === 'error'),
      ).toHaveLength(1);
      expect(events.at(-1)?.type).toBe('completed');
      const turn = await stream.finalTurn();
      expect(stream.text).toBe(turn.content);
      expect(printed(events)).toBe(turn.content);
      expect(turn.id).toBe(stream.messageId);
    },
  ],
  [
    '3.2 the completed turn is saved before its terminal event: the listing has it',
    async (t) => {
      const chatId = newChatId();
      const turn = await t.client().turns.stream(chatId, { content: 'saved first' }).finalTurn();
      const [listed] = (await t.client().chats.messages(chatId)).items;
      expect([listed?.id, listed?.status, listed?.content, listed?.prompt]).toEqual([
        turn.id,
        'completed',
        turn.content,
        'saved first',
      ]);
    },
  ],
  [
    '6 message.step reports progress: a tool run in auto mode is streamed as a step and saved with its tool call',
    async (t) => {
      const stream = t
        .client()
        .turns.stream(newChatId(), { content: '[[mock:tool_approval]]', permission_mode: 'auto' });
      const events = await collect(stream);
      expect(events.some((e) => e.type === 'step' && e.steps.length > 0)).toBe(true);
      const calls = (await stream.finalTurn()).steps.flatMap((step) => step.tool_calls ?? []);
      expect(calls.map((call) => call.name)).toEqual(['search']);
    },
  ],
  [
    'reading: every turn streams a reasoning step first, right after message.start',
    async (t) => {
      const events = await collect(t.client().turns.stream(newChatId(), { content: 'steps please' }));
      expect(events[1]).toMatchObject({ type: 'step', steps: [{ key: 'reasoning', status: 'completed' }] });
    },
  ],
  [
    '6 failover: a replace delta discards the accumulated text; the fold ends equal to the final content',
    async (t) => {
      const stream = t
        .client()
        .turns.stream(newChatId(), { content: '[[mock:failover]] [[mock:words n=8]]' });
      const events = await collect(stream);
      expect(events.some((e) => e.type === 'delta' && e.replace)).toBe(true);
      expect(printed(events)).toBe((await stream.finalTurn()).content);
    },
  ],
  [
    '6 a ping after each ping interval of silence',
    async (t) => {
      const stream = t
        .client()
        .turns.stream(newChatId(), { content: '[[mock:slow ms=200]] [[mock:words n=2]]' }, { pings: true });
      const events = await collect(stream);
      const ping = events.find((e) => e.type === 'ping');
      expect(ping).toBeDefined();
      expect(typeof (ping as { ts: number }).ts).toBe('number');
    },
  ],
  [
    '6 message.error ends the turn: finalTurn rejects with TurnError (code, retryable false, message id)',
    async (t) => {
      const stream = t.client().turns.stream(newChatId(), { content: '[[mock:error code=upstream_error]]' });
      const error = (await stream.finalTurn().catch((e: unknown) => e)) as TurnError;
      expect(error).toBeInstanceOf(TurnError);
      expect([error.code, error.retryable]).toEqual(['upstream_error', false]);
      expect(error.messageId).toBe(stream.messageId);
      const turnTimeout = t
        .client()
        .turns.stream(newChatId(), { content: '[[mock:error code=turn_timeout]]' });
      const timeoutError = (await turnTimeout.finalTurn().catch((e: unknown) => e)) as TurnError;
      expect([timeoutError.code, timeoutError.details]).toEqual(['turn_timeout', undefined]);
    },
  ],
  [
    '7.4 a busy chat -> 409 api_v1_chat_busy before the stream starts, thrown on first read',
    async (t) => {
      const chatId = newChatId();
      const running = t.client().turns.stream(chatId, { content: '[[mock:hang]]' });
      const iterator = running[Symbol.asyncIterator]();
      await iterator.next();
      const error = (await t
        .client()
        .turns.stream(chatId, { content: 'other' })
        .finalTurn()
        .catch((e: unknown) => e)) as ApiError;
      expect(error).toBeInstanceOf(ApiError);
      expect([error.status, error.code]).toEqual([409, 'api_v1_chat_busy']);
      await t.client().turns.cancel(chatId);
      await iterator.return?.();
    },
  ],
  [
    '7.4 the same key with another body -> 409 api_v1_idempotency_conflict',
    async (t) => {
      const chatId = newChatId();
      await t
        .client()
        .turns.stream(chatId, { content: 'a' }, { idempotencyKey: 'stream-conflict' })
        .finalTurn();
      const error = (await t
        .client()
        .turns.stream(chatId, { content: 'b' }, { idempotencyKey: 'stream-conflict' })
        .finalTurn()
        .catch((e: unknown) => e)) as ApiError;
      expect([error.status, error.code]).toEqual([409, 'api_v1_idempotency_conflict']);
    },
  ],
  [
    '4.4 the same key re-delivers the stored outcome as a stream without running again',
    async (t, context) => {
      const chatId = newChatId();
      const first = await t
        .client()
        .turns.stream(chatId, { content: 'remember me' }, { idempotencyKey: 'replay-stream' })
        .finalTurn();
      const again = t
        .client()
        .turns.stream(chatId, { content: 'remember me' }, { idempotencyKey: 'replay-stream' });
      expect(await again.finalTurn()).toEqual(first);
      expect(again.text).toBe(first.content);
      if (t.mock) expect(t.mock.runs('replay-stream')).toBe(1);
      else context.annotate('run counter not checked: external server');
    },
  ],
  [
    'reading: a replay is message.start (same message_id), the steps in one message.step, the text in one delta, the terminal event',
    async (t) => {
      const chatId = newChatId();
      const body = { content: '[[mock:words n=5]]' };
      const first = await t
        .client()
        .turns.stream(chatId, body, { idempotencyKey: 'replay-shape' })
        .finalTurn();
      const events = await collect(t.client().turns.stream(chatId, body, { idempotencyKey: 'replay-shape' }));
      expect(events.map((e) => e.type)).toEqual(['start', 'step', 'delta', 'completed']);
      expect(events[0]).toMatchObject({ message_id: first.id });
      expect(events[2]).toMatchObject({ text: first.content, replace: false });
    },
  ],
  [
    'reading: usage is null exactly when the turn produced no text',
    async (t) => {
      const chatId = newChatId();
      const stream = t.client().turns.stream(chatId, { content: '[[mock:hang]]' });
      const iterator = stream[Symbol.asyncIterator]();
      await iterator.next();
      await t.client().turns.cancel(chatId);
      while (!(await iterator.next()).done);
      const cancelled = await stream.finalTurn();
      expect([cancelled.status, cancelled.content, cancelled.usage]).toEqual(['cancelled', '', null]);
      const [listed] = (await t.client().chats.messages(chatId)).items;
      expect(listed?.usage).toBeNull();
      const answered = await t.client().turns.stream(newChatId(), { content: 'hi' }).finalTurn();
      expect(answered.usage).not.toBeNull();
    },
  ],
  [
    '4.4 the turn finishes when the client goes away: saved, and re-delivered under its key',
    async (t) => {
      const chatId = newChatId();
      const body = { content: '[[mock:words n=6]] [[mock:slow ms=20]]' };
      const stream = t.client().turns.stream(chatId, body, { idempotencyKey: 'walk-away' });
      for await (const event of stream) if (event.type === 'delta') break;
      const replayed = await t
        .client()
        .turns.stream(chatId, body, { idempotencyKey: 'walk-away' })
        .finalTurn();
      expect(replayed.status).toBe('completed');
      expect(replayed.content.split(' ').filter(Boolean)).toHaveLength(6);
      expect((await t.client().chats.messages(chatId)).items[0]?.status).toBe('completed');
    },
  ],
  [
    'done when: a stream cut mid-answer ends with the complete answer, each character once; one run',
    async (t, context) => {
      const mock = needsInProcessMock(t, context);
      mock.faults.add({ route: 'stream', cutAfterEvents: 4 });
      const stream = t
        .client()
        .turns.stream(newChatId(), { content: '[[mock:words n=12]]' }, { idempotencyKey: 'cut-key' });
      const events = await collect(stream);
      const turn = await stream.finalTurn();
      expect(events.some((e) => e.type === 'resumed')).toBe(true);
      expect(printed(events)).toBe(turn.content);
      expect(deltaText(events)).toBe(turn.content);
      expect(mock.runs('cut-key')).toBe(1);
    },
  ],
  [
    '8 a stalled stream (no bytes, no pings) is given up by the watchdog and recovered through the key',
    async (t, context) => {
      const mock = needsInProcessMock(t, context);
      mock.faults.add({ route: 'stream', stall: { afterEvents: 3 } });
      const stream = t
        .client()
        .turns.stream(
          newChatId(),
          { content: '[[mock:words n=6]]' },
          { idleTimeout: 300, idempotencyKey: 'stall-key' },
        );
      const events = await collect(stream);
      expect(events.find((e) => e.type === 'resumed')).toMatchObject({
        reason: expect.stringContaining('no event'),
      });
      expect(deltaText(events)).toBe((await stream.finalTurn()).content);
      expect(mock.runs('stall-key')).toBe(1);
    },
  ],
];

/** All delta texts joined, valid when no replace occurred: each character shown once, none skipped. */
function deltaText(events: TurnStreamEvent[]): string {
  expect(events.some((e) => e.type === 'delta' && e.replace)).toBe(false);
  return events.map((e) => (e.type === 'delta' ? e.text : '')).join('');
}

runOnTargets('streamed turns', cases);
