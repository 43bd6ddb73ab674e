import { expect } from 'vitest';
import { createManualClock, type ModelInput } from '../../../src/mock/index.js';
import {
  auto,
  call,
  chatOf,
  createSkill,
  errorDataOf,
  gatedModel,
  listMessages,
  outcome,
  parseReply,
  send,
  settle,
  turnOf,
} from '../../mock/helpers.js';
import { folded, names, type SseEvent, stream, streamAll, streamRequest } from '../../mock/sse.js';
import { fresh, newChat, type ReadingChecks } from './harness.js';

/** The data of the events named `name`. */
const dataOf = (events: readonly SseEvent[], name: string) =>
  events.filter((event) => event.event === name).map((event) => event.data);

/** The readings of the section Chats and turns. */
export const TURN_READINGS: ReadingChecks = {
  'Status of chat creation ("returns the chat")': async () => {
    const reply = await call(fresh(), 'POST', '/api/v1/chats', { body: {} });
    expect([reply.status, chatOf(reply).is_favorite]).toEqual([201, false]);
  },

  'A chat created by a send (3.4)': async () => {
    const mock = fresh();
    const chat = newChat();
    await send(mock, chat, auto('x', { model_id: 2 }));
    const reply = await call(mock, 'GET', `/api/v1/chats/${chat}`);
    expect(reply.body.data).toMatchObject({ id: chat, name: null, permission_mode: 'auto', model_id: 2 });
  },

  'A `model_id` that is unknown or not COMPLETION': async () => {
    const mock = fresh();
    const replies = [
      await send(mock, newChat(), auto('x', { model_id: 3 })),
      await send(mock, newChat(), auto('x', { model_id: 99 })),
    ];
    expect(replies.map(errorDataOf)).toEqual(
      Array(2).fill([{ field: 'model_id', message: 'must be a COMPLETION model of the catalog' }]),
    );
  },

  "The answer's text": async () => {
    const events = await streamAll(fresh(), newChat(), { content: 'hello [[mock:slow ms=0]] there' });
    expect(dataOf(events, 'message.delta').map((delta) => delta.text)).toEqual([
      'Mock ',
      'answer: ',
      'hello ',
      'there',
    ]);
  },

  '`steps`': async () => {
    const turn = turnOf(await send(fresh(), newChat(), auto('q [[mock:tool_approval]]')));
    expect(
      turn.steps.map((step) => [step.key, step.label, step.label_code, 'detail' in step, 'tokens' in step]),
    ).toEqual([
      ['reasoning', 'Thinking', 'reasoning', false, false],
      ['tool', 'Running search', 'tool_call', false, false],
    ]);
  },

  '`sources`': async () => {
    const attachments = { workspace_ids: [1], file_ids: [21, 11] };
    const turn = turnOf(await send(fresh(), newChat(), auto('x', { attachments })));
    expect(turn.sources).toEqual([
      { workspace_id: 1, file_id: 11, score: 0.95 },
      { workspace_id: 1, file_id: 12, score: 0.9 },
      { workspace_id: 2, file_id: 21, score: 0.85 },
    ]);
  },

  '`anonymization` (shape "not shown", 2.4)': async () => {
    const mock = fresh();
    const chat = newChat();
    const turn = turnOf(await send(mock, chat, auto('x')));
    expect([turn.anonymization, (await listMessages(mock, chat))[0]?.anonymization]).toEqual([null, null]);
  },

  '`metadata`': async () => {
    const mock = fresh();
    const seen: ModelInput[] = [];
    mock.setModel(async function* (input) {
      seen.push(input);
      yield { type: 'text', text: 'ok' };
    });
    const reply = await send(
      mock,
      newChat(),
      '{"content":"x","permission_mode":"auto","metadata":{"__proto__":{"a":1}}}',
    );
    expect([
      reply.text.includes('"metadata":{"__proto__":{"a":1}}'),
      Object.keys(seen[0] ?? {}).includes('metadata'),
    ]).toEqual([true, false]);
  },

  'Transitions between turn statuses other than 3.2\'s ("not shown")': async () => {
    const mock = fresh();
    const { model, open } = gatedModel();
    mock.setModel(model);
    const reply = send(mock, newChat(), auto('x'));
    await settle();
    const during = mock.store.turns()[0]?.status;
    open();
    await reply;
    expect([during, mock.store.turns()[0]?.status]).toEqual(['pending', 'completed']);
  },

  'A synchronous turn that was cancelled': async () => {
    const mock = fresh();
    const chat = newChat();
    const reply = send(mock, chat, auto('[[mock:hang]]'));
    await settle();
    await call(mock, 'POST', `/api/v1/chats/${chat}/actions/cancel`, { body: {} });
    const turn = turnOf(await reply);
    expect(turn.status).toBe('cancelled');
  },

  '`message_id` values': async () => {
    const mock = fresh();
    const first = turnOf(await send(mock, newChat(), auto('x')));
    const second = turnOf(await send(mock, newChat(), auto('x'), { token: 'same-user' }));
    expect([first.id, second.id]).toEqual([1, 2]);
  },

  "Bounds of the directives' parameters (the conventions give none)": async () => {
    const mock = fresh();
    const contents = [
      '[[mock:words n=100001]]',
      '[[mock:slow ms=2592000001]]',
      '[[mock:error code=Bad-Code]]',
    ];
    const replies = await Promise.all(contents.map((content) => send(mock, newChat(), auto(content))));
    expect([
      replies.map(outcome),
      replies.map((reply) => (errorDataOf(reply) as Array<{ limit: number }>)[0]?.limit),
      mock.store.turns(),
    ]).toEqual([Array(3).fill([422, 'api_v1_validation_error']), [100_000, 2_592_000_000, 64], []]);
  },
};

/** The readings of the section Idempotency keys. */
export const KEY_READINGS: ReadingChecks = {
  'Scope of a key': async () => {
    const mock = fresh();
    const chat = newChat();
    await streamAll(mock, chat, { content: 'x' }, { key: 'manual' });
    await streamAll(mock, chat, auto('z'), { key: 'auto' });
    const replies = [
      // A streamed manual turn's key: the synchronous send's own 409 comes before the key.
      await send(mock, chat, { content: 'x' }, { key: 'manual' }),
      await send(mock, chat, auto('x'), { key: 'manual' }),
      // A streamed auto turn's key replays on the synchronous send.
      await send(mock, chat, auto('z'), { key: 'auto' }),
      await send(mock, chat, auto('y'), { key: 'synced' }),
      // Another credential's key space: the same key is a new turn there.
      await send(mock, newChat(), auto('y'), { key: 'synced', token: 'same-user' }),
    ];
    const replayed = await streamAll(mock, chat, auto('y'), { key: 'synced' });
    const runs = ['manual', 'auto', 'synced'].map((key) => mock.runs(key, 'mock-token'));
    expect([...replies.map(outcome), names(replayed).at(-1), runs, mock.runs('synced', 'same-user')]).toEqual(
      [
        [409, 'api_v1_sync_requires_auto'],
        [409, 'api_v1_idempotency_conflict'],
        [200, 'api_v1_ok'],
        [200, 'api_v1_ok'],
        [200, 'api_v1_ok'],
        'message.completed',
        [1, 1, 1],
        1,
      ],
    );
  },

  'What "the same body" compares': async () => {
    const mock = fresh();
    const chat = newChat();
    // As deep as `metadata`'s 2048 bytes allow, written as text: JSON.stringify itself recurses.
    const deep = `${'['.repeat(1000)}1${']'.repeat(1000)}`;
    const first = `{"content":"x","permission_mode":"auto","metadata":{"a":1,"b":{"c":2,"d":${deep}}}}`;
    const reordered = `{"metadata":{"b":{"d":${deep},"c":2},"a":1},"permission_mode":"auto","content":"x"}`;
    const replies = [
      await send(mock, chat, first, { key: 'k' }),
      await send(mock, chat, reordered, { key: 'k' }),
      await send(mock, newChat(), first, { key: 'k' }),
      await send(mock, chat, first.replace('"a":1', '"a":1.5'), { key: 'k' }),
    ];
    expect([...replies.map(outcome), mock.runs('k')]).toEqual([
      [200, 'api_v1_ok'],
      [200, 'api_v1_ok'],
      [409, 'api_v1_idempotency_conflict'],
      [409, 'api_v1_idempotency_conflict'],
      1,
    ]);
  },

  'Whitespace around the key': async () => {
    const mock = fresh();
    const chat = newChat();
    await send(mock, chat, auto('x'), { key: '  spaced  ' });
    const trimmed = await send(mock, chat, auto('x'), { key: 'spaced' });
    const blank = await send(mock, chat, auto('x'), { key: '   ' });
    expect([trimmed.status, mock.runs('spaced'), ...outcome(blank)]).toEqual([
      200,
      1,
      400,
      'api_v1_idempotency_key_required',
    ]);
  },

  'What a replay is checked against': async () => {
    const mock = fresh();
    const chat = newChat();
    const skill = await createSkill(mock);
    const body = auto('x', { attachments: { skill_ids: [skill.id] } });
    await send(mock, chat, body, { key: 'k' });
    await call(mock, 'DELETE', `/api/v1/skills/${skill.id}`);
    const replay = await send(mock, chat, body, { key: 'k' });
    const fresh404 = await send(mock, chat, body, { key: 'other' });
    await call(mock, 'DELETE', `/api/v1/chats/${chat}`);
    const deletedChat = await send(mock, chat, body, { key: 'k' });
    expect([replay.status, mock.runs('k'), ...outcome(fresh404), ...outcome(deletedChat)]).toEqual([
      200,
      1,
      404,
      'api_v1_not_found',
      404,
      'api_v1_not_found',
    ]);
  },

  'The same key while its turn runs, on the streaming send (7.4 shows no such row)': async () => {
    const mock = fresh();
    const { model, open } = gatedModel();
    mock.setModel(model);
    const chat = newChat();
    const reader = await stream(mock, chat, { content: 'x' }, { key: 'k' });
    const again = await parseReply(
      await mock.handle(streamRequest(mock, chat, { content: 'x' }, { key: 'k' })),
    );
    open();
    await reader.rest();
    expect(outcome(again)).toEqual([409, 'api_v1_turn_in_progress']);
  },

  'Shape of a stream replay ("re-delivers that outcome")': async () => {
    const mock = fresh();
    const chat = newChat();
    const turn = turnOf(await send(mock, chat, auto('two words'), { key: 'k' }));
    const replay = await streamAll(mock, chat, auto('two words'), { key: 'k' });
    expect([names(replay), replay[0]?.data.message_id, folded(replay)]).toEqual([
      ['message.start', 'message.step', 'message.delta', 'message.completed'],
      turn.id,
      'Mock answer: two words',
    ]);
  },

  '`idempotency_outcome_unknown` (scripted by `[[mock:error code=idempotency_outcome_unknown]]`)':
    async () => {
      const mock = fresh();
      const chat = newChat();
      const body = auto('[[mock:error code=idempotency_outcome_unknown]]');
      const first = await send(mock, chat, body, { key: 'k' });
      const again = await send(mock, chat, body, { key: 'k' });
      expect([...outcome(first), turnOf(again).status, mock.runs('k')]).toEqual([
        409,
        'api_v1_core_unavailable',
        'completed',
        1,
      ]);
    },

  'Other errors of the streaming send before the stream ("not shown", 7.4)': async () => {
    const mock = fresh();
    const request = (body: unknown, key?: string | null) =>
      mock.handle(streamRequest(mock, newChat(), body, key === undefined ? {} : { key })).then(parseReply);
    const replies = [
      await request({ content: 'x' }, null),
      await request({ content: 'c'.repeat(64_001) }),
      await request({ content: 'x', attachments: { file_ids: [999] } }),
    ];
    const manual = await mock.handle(
      streamRequest(mock, newChat(), { content: 'x', permission_mode: 'manual' }),
    );
    await manual.body?.cancel();
    expect([...replies.map(outcome), manual.status]).toEqual([
      [400, 'api_v1_idempotency_key_required'],
      [422, 'api_v1_content_too_long'],
      [404, 'api_v1_not_found'],
      200,
    ]);
  },
};

/** The readings of the section Streams. */
export const STREAM_READINGS: ReadingChecks = {
  'What "15 s of silence" counts from': async () => {
    const clock = createManualClock();
    const mock = fresh({ clock, pingMs: 1000 });
    const reader = await stream(mock, newChat(), { content: '[[mock:hang]]' });
    await reader.until('message.step');
    let next: SseEvent | undefined;
    const read = reader.next().then((event) => {
      next = event;
    });
    await clock.advance(999);
    await settle();
    const early = next;
    await clock.advance(1);
    await read;
    await reader.cancel();
    expect([early, next?.event]).toEqual([undefined, 'ping']);
  },

  'Response headers': async () => {
    const mock = fresh();
    const response = await mock.handle(streamRequest(mock, newChat(), { content: 'x' }));
    await response.body?.cancel();
    expect(
      ['content-type', 'cache-control', 'x-accel-buffering'].map((name) => response.headers.get(name)),
    ).toEqual(['text/event-stream; charset=utf-8', 'no-cache', 'no']);
  },

  '`Accept: text/event-stream` missing': async () => {
    const mock = fresh();
    const request = streamRequest(mock, newChat(), { content: 'x' });
    const headers = new Headers(request.headers);
    headers.delete('accept');
    const response = await mock.handle(new Request(request, { headers }));
    await response.body?.cancel();
    expect([response.status, response.headers.get('content-type')]).toEqual([
      200,
      'text/event-stream; charset=utf-8',
    ]);
  },
};
