import { beforeEach, describe, expect, it } from 'vitest';
import { type ConvoMock, createManualClock, createMock, type ManualClock } from '../../src/mock/index.js';
import { untilSleeping } from '../support/manual-clock.js';
import {
  auto,
  CHAT_TOKENS,
  createChat,
  errorDataOf,
  gatedModel,
  listMessages,
  outcome,
  parseReply,
  send,
  settle,
  turnOf,
} from './helpers.js';
import { folded, names, stream, streamAll, streamRequest } from './sse.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let mock: ConvoMock;
let chatId: string;
beforeEach(() => {
  mock = createMock({ tokens: CHAT_TOKENS, clock: { now: () => Date.parse('2026-01-02T03:04:05.000Z') } });
  chatId = crypto.randomUUID();
});

describe('4.4 and 6 the stream of a turn', () => {
  it('4.4 answers text/event-stream; 6 message.start comes first with chat_id, message_id, request_id', async () => {
    const response = await mock.handle(streamRequest(mock, chatId, { content: 'hi' }));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = await streamAll(mock, crypto.randomUUID(), { content: 'hi' });
    expect(events[0]?.event).toBe('message.start');
    expect(events[0]?.data).toMatchObject({ message_id: 2 });
    expect(String(events[0]?.data.request_id)).toMatch(UUID);
  });

  it('6 typical order: start, the reasoning step, one delta per word, then message.completed', async () => {
    const events = await streamAll(mock, chatId, { content: 'one two' });
    expect(names(events)).toEqual([
      'message.start',
      'message.step',
      'message.delta',
      'message.delta',
      'message.delta',
      'message.delta',
      'message.completed',
    ]);
    expect(events.filter((e) => e.event === 'message.delta').map((e) => e.data)).toEqual([
      { text: 'Mock ', replace: false },
      { text: 'answer: ', replace: false },
      { text: 'one ', replace: false },
      { text: 'two', replace: false },
    ]);
    expect(events[1]?.data).toEqual({
      steps: [
        {
          key: 'reasoning',
          label: 'Thinking',
          label_code: 'reasoning',
          status: 'completed',
          timestamp: '2026-01-02T03:04:05.000Z',
          duration: 0,
        },
      ],
    });
  });

  it('6 message.completed carries the turn fields; the deltas concatenate to its content exactly', async () => {
    const events = await streamAll(mock, chatId, {
      content: 'a  b',
      metadata: { m: 1 },
      attachments: { file_ids: [12] },
    });
    const completed = events.at(-1);
    expect(completed?.data).toEqual({
      id: 1,
      chat_id: chatId,
      role: 'assistant',
      content: 'Mock answer: a b',
      usage: {
        prompt_tokens: 2,
        completion_tokens: 4,
        total_tokens: 6,
        reasoning_tokens: 0,
        model: 'mock-large',
        provider: 'mock',
      },
      steps: events[1]?.data.steps,
      sources: [{ workspace_id: 1, file_id: 12, score: 0.95 }],
      anonymization: null,
      metadata: { m: 1 },
    });
    expect(folded(events)).toBe(completed?.data.content);
    const [message] = await listMessages(mock, chatId);
    expect(message).toEqual({
      ...completed?.data,
      status: 'completed',
      prompt: 'a  b',
      created_at: '2026-01-02T03:04:05.000Z',
    });
  });

  it('6 rule 1: the turn is saved before the terminal event, which is last; the body then ends', async () => {
    const reader = await stream(mock, chatId, { content: 'x' });
    const events = await reader.until('message.completed');
    expect(mock.store.turns()[0]?.status).toBe('completed');
    expect(events.filter((e) => e.event.startsWith('message.c'))).toHaveLength(1);
    expect(await reader.next()).toBeUndefined();
  });

  it('4.4 permission_mode is manual by default and auto is allowed', async () => {
    await streamAll(mock, chatId, { content: 'x' });
    await streamAll(mock, crypto.randomUUID(), { content: 'x', permission_mode: 'auto' });
    expect(mock.store.turns().map((turn) => turn.permission_mode)).toEqual(['manual', 'auto']);
  });

  it('6 message.error: { code, message, retryable: false, details } for an outage; no details for turn_timeout', async () => {
    const upstream = await streamAll(mock, chatId, { content: '[[mock:error code=upstream_error]]' });
    expect(names(upstream)).toEqual(['message.start', 'message.step', 'message.error']);
    expect(upstream.at(-1)?.data).toMatchObject({
      code: 'upstream_error',
      retryable: false,
      details: { service_code: 'upstream_error' },
    });
    expect(typeof upstream.at(-1)?.data.message).toBe('string');
    const persistence = await streamAll(mock, crypto.randomUUID(), {
      content: '[[mock:error code=persistence_failed]]',
    });
    expect(persistence.at(-1)?.data).toMatchObject({
      code: 'persistence_failed',
      details: { retry_action: 'check_status' },
    });
    const timeout = await streamAll(mock, crypto.randomUUID(), {
      content: '[[mock:error code=turn_timeout]]',
    });
    expect(timeout.at(-1)?.data).not.toHaveProperty('details');
    expect(mock.store.turns().map((turn) => turn.status)).toEqual(['error', 'error', 'error']);
  });

  it('6 idempotency_outcome_unknown is not the stored outcome: the same key then replays the completed turn', async () => {
    const body = { content: '[[mock:error code=idempotency_outcome_unknown]] hi' };
    const first = await streamAll(mock, chatId, body, { key: 'k' });
    expect(first.at(-1)).toMatchObject({
      event: 'message.error',
      data: { code: 'idempotency_outcome_unknown', retryable: false },
    });
    const replay = await streamAll(mock, chatId, body, { key: 'k' });
    expect(names(replay)).toEqual(['message.start', 'message.step', 'message.delta', 'message.completed']);
    expect(replay.at(-1)?.data).toMatchObject({ content: 'Mock answer: hi' });
    expect(mock.runs('k')).toBe(1);
  });

  it('failover: after two deltas one delta with replace: true carries the full new text; deltas continue', async () => {
    const events = await streamAll(mock, chatId, { content: '[[mock:failover]] a b' });
    const deltas = events.filter((e) => e.event === 'message.delta').map((e) => e.data);
    expect(deltas).toEqual([
      { text: 'Mock ', replace: false },
      { text: 'answer: ', replace: false },
      { text: '(failover) Mock answer: ', replace: true },
      { text: 'a ', replace: false },
      { text: 'b', replace: false },
    ]);
    expect(folded(events)).toBe(events.at(-1)?.data.content);
  });

  it('words n=N: N deltas of one word each', async () => {
    const events = await streamAll(mock, chatId, { content: '[[mock:words n=3]]' });
    expect(events.filter((e) => e.event === 'message.delta').map((e) => e.data.text)).toEqual([
      'word1 ',
      'word2 ',
      'word3',
    ]);
  });

  it('tool_approval in auto: a step with the tool in tool_calls, no action_required', async () => {
    const events = await streamAll(mock, chatId, {
      content: 'q [[mock:tool_approval]]',
      permission_mode: 'auto',
    });
    expect(names(events)).not.toContain('message.action_required');
    expect(
      events.find((e) => e.event === 'message.step' && JSON.stringify(e.data).includes('toolu_1')),
    ).toBeDefined();
  });

  it('elicitation in an auto stream does not ask (section 6: manual only); the turn completes', async () => {
    const events = await streamAll(mock, chatId, {
      content: '[[mock:elicitation]]',
      permission_mode: 'auto',
    });
    expect(names(events)).not.toContain('message.action_required');
    expect(events.at(-1)?.event).toBe('message.completed');
  });
});

describe('4.4 and 7.4 checks before the stream starts (JSON errors)', () => {
  it('4.4 the same checks as the synchronous send, but for the permission mode', async () => {
    const cases = [
      [{ content: 'a' }, { key: null }, 400, 'api_v1_idempotency_key_required'],
      [{ content: 'x'.repeat(64_001) }, {}, 422, 'api_v1_content_too_long'],
      [
        { content: 'a', attachments: { file_ids: Array(21).fill(11) } },
        {},
        422,
        'api_v1_too_many_attachments',
      ],
      [{ content: 1 }, {}, 422, 'api_v1_validation_error'],
      [{ content: 'a', permission_mode: 'plan' }, {}, 422, 'api_v1_validation_error'],
      [
        { content: 'a', attachments: { mcp_server_ids: [1] } },
        { token: 'chat-only' },
        403,
        'api_token_scope_not_allowed',
      ],
      [{ content: 'a', attachments: { skill_ids: [5] } }, {}, 404, 'api_v1_not_found'],
    ] as const;
    for (const [body, init, status, code] of cases) {
      const reply = await parseReply(await mock.handle(streamRequest(mock, chatId, body, init)));
      expect(outcome(reply), JSON.stringify(body)).toEqual([status, code]);
      expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
    }
    expect(mock.store.turns()).toEqual([]);
  });

  it('7.1 another credential’s (or a deleted) chat -> 404 before the stream', async () => {
    const theirs = await createChat(mock, {}, 'same-user');
    const reply = await parseReply(await mock.handle(streamRequest(mock, theirs.id, { content: 'a' })));
    expect(outcome(reply)).toEqual([404, 'api_v1_not_found']);
  });

  it('7.4 a chat running a turn -> 409 api_v1_chat_busy (JSON) with data.message_id', async () => {
    const { model, open } = gatedModel();
    mock.setModel(model);
    const reader = await stream(mock, chatId, { content: 'a' });
    const reply = await parseReply(await mock.handle(streamRequest(mock, chatId, { content: 'b' })));
    expect(outcome(reply)).toEqual([409, 'api_v1_chat_busy']);
    expect(errorDataOf(reply)).toEqual({ message_id: 1 });
    open();
    await reader.rest();
  });

  it('7.4 a key used with a different body -> 409 api_v1_idempotency_conflict (JSON)', async () => {
    await streamAll(mock, chatId, { content: 'a' }, { key: 'k' });
    const reply = await parseReply(
      await mock.handle(streamRequest(mock, chatId, { content: 'b' }, { key: 'k' })),
    );
    expect(outcome(reply)).toEqual([409, 'api_v1_idempotency_conflict']);
  });

  it('4.4 a key whose turn still runs -> 409 api_v1_turn_in_progress (JSON)', async () => {
    const { model, open } = gatedModel();
    mock.setModel(model);
    const reader = await stream(mock, chatId, { content: 'a' }, { key: 'k' });
    const reply = await parseReply(
      await mock.handle(streamRequest(mock, chatId, { content: 'a' }, { key: 'k' })),
    );
    expect(outcome(reply)).toEqual([409, 'api_v1_turn_in_progress']);
    open();
    await reader.rest();
  });
});

describe('4.4 the turn outlives its client; keys replay', () => {
  it('4.4 the client goes away mid-stream: the turn finishes and is saved, its outcome stored under the key', async () => {
    const { model, open } = gatedModel();
    mock.setModel(model);
    const reader = await stream(mock, chatId, { content: 'a' }, { key: 'k' });
    expect(names(await reader.until('message.delta'))).toEqual(['message.start', 'message.delta']);
    await reader.cancel();
    open();
    await settle();
    expect(mock.store.turns()[0]).toMatchObject({ status: 'completed', content: 'first second' });
    const replay = await streamAll(mock, chatId, { content: 'a' }, { key: 'k' });
    expect(replay.at(-1)?.data.content).toBe('first second');
    expect(mock.runs('k')).toBe(1);
  });

  it('4.4 replay: message.start (same message_id), the steps as one message.step, the content as one delta, the terminal event', async () => {
    const first = await streamAll(
      mock,
      chatId,
      { content: 'a [[mock:tool_approval]]', permission_mode: 'auto' },
      { key: 'k' },
    );
    const replay = await streamAll(
      mock,
      chatId,
      { content: 'a [[mock:tool_approval]]', permission_mode: 'auto' },
      { key: 'k' },
    );
    expect(names(replay)).toEqual(['message.start', 'message.step', 'message.delta', 'message.completed']);
    expect(replay[0]?.data.message_id).toBe(first[0]?.data.message_id);
    expect(replay[0]?.data.request_id).not.toBe(first[0]?.data.request_id);
    expect(replay[1]?.data.steps).toHaveLength(2);
    expect(replay[2]?.data).toEqual({ text: 'Mock answer: a', replace: false });
    expect(replay[3]).toEqual(first.at(-1));
    expect(mock.runs('k')).toBe(1);
  });

  it('4.4 replay of an empty answer has no delta; of a failed turn ends with the same message.error', async () => {
    await streamAll(mock, chatId, { content: '[[mock:words n=0]]' }, { key: 'k1' });
    expect(names(await streamAll(mock, chatId, { content: '[[mock:words n=0]]' }, { key: 'k1' }))).toEqual([
      'message.start',
      'message.step',
      'message.completed',
    ]);
    const body = { content: '[[mock:error code=upstream_error]]' };
    const first = await streamAll(mock, chatId, body, { key: 'k2' });
    expect((await streamAll(mock, chatId, body, { key: 'k2' })).at(-1)).toEqual(first.at(-1));
  });

  it('4.3/4.4 the key space is shared: a sync key replays as a stream, a stream key as a sync answer', async () => {
    const syncTurn = turnOf(await send(mock, chatId, auto('a'), { key: 'k1' }));
    const asStream = await streamAll(mock, chatId, auto('a'), { key: 'k1' });
    expect(asStream.at(-1)?.data).toEqual({ ...syncTurn, status: undefined });
    const streamed = await streamAll(mock, chatId, auto('b'), { key: 'k2' });
    const asSync = turnOf(await send(mock, chatId, auto('b'), { key: 'k2' }));
    expect({ ...asSync, status: undefined }).toEqual(streamed.at(-1)?.data);
    expect([mock.runs('k1'), mock.runs('k2')]).toEqual([1, 1]);
    // A failed streamed turn replays as the synchronous error of 7.3.
    await streamAll(
      mock,
      chatId,
      { content: '[[mock:error code=upstream_error]]', permission_mode: 'auto' },
      { key: 'k3' },
    );
    const reply = await send(mock, chatId, auto('[[mock:error code=upstream_error]]'), { key: 'k3' });
    expect(outcome(reply)).toEqual([502, 'upstream_error']);
  });
});

describe('6 pings and timing, on an injected clock', () => {
  let clock: ManualClock;
  beforeEach(() => {
    clock = createManualClock(Date.parse('2026-01-02T03:04:05.000Z'));
    mock = createMock({ clock, pingMs: 1000 });
  });

  it('6 a ping { ts } (seconds, fractional) after every pingMs of silence; hang produces nothing else', async () => {
    const reader = await stream(mock, chatId, { content: '[[mock:hang]]' });
    expect(names([(await reader.next())!, (await reader.next())!])).toEqual([
      'message.start',
      'message.step',
    ]);
    const next = reader.next();
    await clock.advance(999);
    await clock.advance(1);
    expect(await next).toEqual({
      event: 'ping',
      data: { ts: Date.parse('2026-01-02T03:04:06.000Z') / 1000 },
    });
    const again = reader.next();
    await clock.advance(1500);
    expect((await again)?.data).toEqual({ ts: Date.parse('2026-01-02T03:04:07.000Z') / 1000 });
    expect(mock.store.turns()[0]?.status).toBe('pending');
    await reader.cancel();
  });

  it('slow ms=M waits M ms before each delta; the silence before a ping restarts with each event', async () => {
    const reader = await stream(mock, chatId, { content: '[[mock:slow ms=600]] [[mock:words n=2]]' });
    await reader.next();
    await reader.next();
    const first = reader.next();
    // The read's ping and the turn's slow wait, both started before the time moves.
    await untilSleeping(clock, 2);
    await clock.advance(600);
    expect((await first)?.data).toEqual({ text: 'word1 ', replace: false });
    const second = reader.next();
    await untilSleeping(clock, 2);
    await clock.advance(600);
    expect((await second)?.data).toEqual({ text: 'word2', replace: false });
    expect((await reader.next())?.event).toBe('message.completed');
  });
});
