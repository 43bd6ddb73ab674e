import { beforeEach, describe, expect, it } from 'vitest';
import { type ConvoMock, createMock, MAX_BODY_BYTES, MAX_TURN_ATTACHMENTS } from '../../src/mock/index.js';
import { fingerprint } from '../../src/mock/state/idempotency.js';
import {
  auto,
  CHAT_TOKENS,
  call,
  chatOf,
  createChat,
  errorDataOf,
  gatedModel,
  listMessages,
  outcome,
  send,
  settle,
  turnOf,
} from './helpers.js';

let mock: ConvoMock;
let chatId: string;
beforeEach(() => {
  mock = createMock({ tokens: CHAT_TOKENS, clock: { now: () => Date.parse('2026-01-02T03:04:05.000Z') } });
  chatId = crypto.randomUUID();
});

describe('4.3 the turn', () => {
  it('4.3 answers 200 with the turn of 2.4 (no prompt): the default answer, usage, one reasoning step', async () => {
    const reply = await send(mock, chatId, auto('Hello   there world'));
    const turn = turnOf(reply);
    expect(turn).toEqual({
      id: 1,
      chat_id: chatId,
      role: 'assistant',
      content: 'Mock answer: Hello there world',
      status: 'completed',
      usage: {
        prompt_tokens: 3,
        completion_tokens: 5,
        total_tokens: 8,
        reasoning_tokens: 0,
        model: 'mock-large',
        provider: 'mock',
      },
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
      sources: [],
      anonymization: null,
      metadata: null,
    });
    expect(reply.body.data).not.toHaveProperty('prompt');
  });

  it('2.4 turn ids come from one counter across chats and credentials', async () => {
    const first = turnOf(await send(mock, chatId, auto('a')));
    const second = turnOf(await send(mock, crypto.randomUUID(), auto('b'), { token: 'same-user' }));
    const third = turnOf(await send(mock, chatId, auto('c')));
    expect([first.id, second.id, third.id]).toEqual([1, 2, 3]);
  });

  it('2.4 usage.model is the turn’s model, else the chat’s, else the company default (1)', async () => {
    const chat = await createChat(mock, { model_id: 2 });
    expect(turnOf(await send(mock, chat.id, auto('a'))).usage?.model).toBe('mock-small');
    expect(turnOf(await send(mock, chat.id, auto('a', { model_id: 1 }))).usage?.model).toBe('mock-large');
    expect(turnOf(await send(mock, chatId, auto('a'))).usage?.model).toBe('mock-large');
  });

  it('2.4 sources: one per attached file, the files of attached libraries included', async () => {
    const turn = turnOf(
      await send(mock, chatId, auto('a', { attachments: { workspace_ids: [1], file_ids: [21, 11] } })),
    );
    expect(turn.sources).toEqual([
      { workspace_id: 1, file_id: 11, score: 0.95 },
      { workspace_id: 1, file_id: 12, score: 0.9 },
      { workspace_id: 2, file_id: 21, score: 0.85 },
    ]);
  });

  it('4.3 metadata is echoed verbatim, keys such as __proto__ included, and pollutes nothing', async () => {
    const body = `{"content":"a","permission_mode":"auto","metadata":{"__proto__":{"polluted":true},"n":[1,{"x":null}],"s":"é"}}`;
    const reply = await call(mock, 'POST', `/api/v1/chats/${chatId}/messages`, {
      body,
      headers: { 'idempotency-key': 'k' },
    });
    expect(turnOf(reply).status).toBe('completed');
    // Read from the raw text: exactly what the mock sent, whatever a parser would make of it.
    const echoed = '"metadata":{"__proto__":{"polluted":true},"n":[1,{"x":null}],"s":"é"}';
    expect(reply.text).toContain(echoed);
    expect((await call(mock, 'GET', `/api/v1/chats/${chatId}/messages`)).text).toContain(echoed);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('3.4 a send to an unknown chat id creates the chat with that id, owned by the sender', async () => {
    await send(mock, chatId, auto('hi', { model_id: 2 }));
    const chat = chatOf(await call(mock, 'GET', `/api/v1/chats/${chatId}`));
    expect(chat).toMatchObject({ id: chatId, name: null, permission_mode: 'auto', model_id: 2 });
    expect(outcome(await call(mock, 'GET', `/api/v1/chats/${chatId}`, { token: 'same-user' }))).toEqual([
      404,
      'api_v1_not_found',
    ]);
  });

  it('3.4 an uppercase chat id names the same chat', async () => {
    await send(mock, chatId, auto('a'));
    expect(turnOf(await send(mock, chatId.toUpperCase(), auto('b'))).chat_id).toBe(chatId);
    expect(mock.store.chats()).toHaveLength(1);
  });
});

describe('4.3 and 7.3 checks, in order', () => {
  it('5 no token -> 401 before anything else', async () => {
    const reply = await call(mock, 'POST', `/api/v1/chats/${chatId}/messages`, { token: null, body: '{' });
    expect(outcome(reply)).toEqual([401, 'api_v1_unauthorized']);
  });

  it('4.3 body not JSON -> 400 api_v1_invalid_json; too large -> 413, both before the key check', async () => {
    const bad = await call(mock, 'POST', `/api/v1/chats/${chatId}/messages`, { body: '{' });
    expect(outcome(bad)).toEqual([400, 'api_v1_invalid_json']);
    const big = await send(mock, chatId, 'x'.repeat(MAX_BODY_BYTES + 1), { key: null });
    expect(outcome(big)).toEqual([413, 'api_v1_payload_too_large']);
  });

  it('7.3 no Idempotency-Key (or a blank one) -> 400 api_v1_idempotency_key_required, before 422', async () => {
    expect(outcome(await send(mock, chatId, auto('a'), { key: null }))).toEqual([
      400,
      'api_v1_idempotency_key_required',
    ]);
    expect(outcome(await send(mock, chatId, { content: 7 }, { key: '  ' }))).toEqual([
      400,
      'api_v1_idempotency_key_required',
    ]);
    expect(mock.store.turns()).toEqual([]);
  });

  it('7.3 content over 64,000 characters -> 422 api_v1_content_too_long; 64,000 pass', async () => {
    const reply = await send(mock, chatId, { content: '😀'.repeat(64_001) });
    expect(outcome(reply)).toEqual([422, 'api_v1_content_too_long']);
    expect(errorDataOf(reply)).toEqual([
      { field: 'content', message: 'must be at most 64000 characters', limit: 64_000 },
    ]);
    expect(turnOf(await send(mock, chatId, auto('😀'.repeat(64_000)))).status).toBe('completed');
  });

  it(`7.3 more than ${MAX_TURN_ATTACHMENTS} attachment ids in total -> 422 api_v1_too_many_attachments`, async () => {
    const many = { file_ids: Array(11).fill(11), workspace_ids: Array(10).fill(1) };
    const reply = await send(mock, chatId, auto('a', { attachments: many }));
    expect(outcome(reply)).toEqual([422, 'api_v1_too_many_attachments']);
    expect(errorDataOf(reply)).toEqual([
      { field: 'attachments', message: 'must hold at most 20 ids in total', limit: 20 },
    ]);
    const twenty = { file_ids: Array(10).fill(11), workspace_ids: Array(10).fill(1) };
    expect(turnOf(await send(mock, chatId, auto('a', { attachments: twenty }))).status).toBe('completed');
  });

  it('4.3 other problems -> 422 api_v1_validation_error naming each field', async () => {
    const reply = await send(mock, chatId, {
      permission_mode: 'auto',
      model_id: 'one',
      attachments: { file_ids: ['11'] },
    });
    expect(outcome(reply)).toEqual([422, 'api_v1_validation_error']);
    expect(errorDataOf(reply)).toEqual(
      expect.arrayContaining([
        { field: 'content', message: 'is required' },
        { field: 'model_id', message: 'must be an integer' },
        { field: 'attachments.file_ids.0', message: 'must be an integer' },
      ]),
    );
  });

  it('8 metadata over 2048 serialized bytes -> 422 api_v1_validation_error; 2048 pass', async () => {
    const exact = { v: 'x'.repeat(2048 - '{"v":""}'.length) };
    expect(turnOf(await send(mock, chatId, auto('a', { metadata: exact }))).metadata).toEqual(exact);
    const reply = await send(mock, chatId, auto('a', { metadata: { v: `${exact.v}x` } }));
    expect(outcome(reply)).toEqual([422, 'api_v1_validation_error']);
    expect(errorDataOf(reply)).toEqual([
      { field: 'metadata', message: 'must serialize to at most 2048 bytes of UTF-8 JSON', limit: 2048 },
    ]);
  });

  it('4.3 a model_id that is not a COMPLETION model -> 422 api_v1_validation_error', async () => {
    const reply = await send(mock, chatId, auto('a', { model_id: 3 }));
    expect(outcome(reply)).toEqual([422, 'api_v1_validation_error']);
  });

  it('7.3 permission_mode missing, manual or any other mode (plan) -> 409 api_v1_sync_requires_auto; a non-string is 422', async () => {
    expect(outcome(await send(mock, chatId, { content: 'a' }))).toEqual([409, 'api_v1_sync_requires_auto']);
    expect(outcome(await send(mock, chatId, { content: 'a', permission_mode: 'manual' }))).toEqual([
      409,
      'api_v1_sync_requires_auto',
    ]);
    expect(outcome(await send(mock, chatId, { content: 'a', permission_mode: 'plan' }))).toEqual([
      409,
      'api_v1_sync_requires_auto',
    ]);
    expect(outcome(await send(mock, chatId, { content: 'a', permission_mode: 5 }))).toEqual([
      422,
      'api_v1_validation_error',
    ]);
    // 422 comes first.
    expect(outcome(await send(mock, chatId, { content: 5 }))).toEqual([422, 'api_v1_validation_error']);
    expect(mock.store.turns()).toEqual([]);
  });

  it('5 attachments without their scope -> 403 api_token_scope_not_allowed listing the missing scopes', async () => {
    const reply = await send(
      mock,
      chatId,
      auto('a', { attachments: { file_ids: [11], skill_ids: [1], mcp_server_ids: [1], workspace_ids: [] } }),
      { token: 'chat-only' },
    );
    expect(outcome(reply)).toEqual([403, 'api_token_scope_not_allowed']);
    expect(errorDataOf(reply)).toEqual({
      required_scopes: ['libraries:read', 'skills:read', 'connectors:use'],
    });
    // An empty list attaches nothing and needs no scope; 409 sync_requires_auto comes before 403.
    expect(
      turnOf(await send(mock, chatId, auto('a', { attachments: { file_ids: [] } }), { token: 'chat-only' }))
        .status,
    ).toBe('completed');
    expect(
      outcome(
        await send(mock, chatId, { content: 'a', attachments: { file_ids: [11] } }, { token: 'chat-only' }),
      ),
    ).toEqual([409, 'api_v1_sync_requires_auto']);
  });

  it('4.3 a body with an unknown field nested 100,000 levels deep is not a 500: it is refused naming the field', async () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const body = `{"content":"a","permission_mode":"auto","x":${deep}}`;
    const headers = { 'idempotency-key': 'deep' };
    const reply = await call(mock, 'POST', `/api/v1/chats/${chatId}/messages`, { body, headers });
    expect(outcome(reply)).toEqual([422, 'api_v1_validation_error']);
    expect((reply.body as { data: { field: string }[] }).data[0]?.field).toBe('x');
    expect(mock.runs('deep')).toBe(0);
  });

  it('4.3 the key of a body nested 100,000 levels deep is compared without recursion', () => {
    const deep = (levels: number) => JSON.parse(`${'['.repeat(levels)}${']'.repeat(levels)}`);
    const a = fingerprint(chatId, { content: 'a', metadata: { x: deep(100_000) } });
    expect(fingerprint(chatId, { content: 'a', metadata: { x: deep(100_000) } })).toBe(a);
    expect(fingerprint(chatId, { content: 'a', metadata: { x: deep(99_999) } })).not.toBe(a);
  });

  it('7.1 attachments that do not exist or that the credential cannot use -> 404 naming them', async () => {
    const cases = [
      [{ workspace_ids: [3] }, 'mock-token', 'attachments.workspace_ids', [3]],
      [{ file_ids: [11, 99, 99] }, 'mock-token', 'attachments.file_ids', [99]],
      [{ skill_ids: [1] }, 'mock-token', 'attachments.skill_ids', [1]],
      [{ mcp_server_ids: [9] }, 'mock-token', 'attachments.mcp_server_ids', [9]],
      [{ workspace_ids: [1] }, 'other-co', 'attachments.workspace_ids', [1]],
      [{ file_ids: [11] }, 'allow-libs', 'attachments.file_ids', [11]],
    ] as const;
    for (const [attachments, token, field, ids] of cases) {
      const reply = await send(mock, crypto.randomUUID(), auto('a', { attachments }), { token });
      expect([...outcome(reply), reply.body.data], JSON.stringify(attachments)).toEqual([
        404,
        'api_v1_not_found',
        { field, ids },
      ]);
    }
    expect(mock.store.turns()).toEqual([]);
    expect(mock.store.chats()).toEqual([]);
  });

  it('5 403 for a missing attachment scope comes before 404 for unusable ids', async () => {
    const reply = await send(mock, chatId, auto('a', { attachments: { file_ids: [99] } }), {
      token: 'chat-only',
    });
    expect(outcome(reply)).toEqual([403, 'api_token_scope_not_allowed']);
  });

  it('7.1 another credential’s chat -> 404 after the request’s own checks, and nothing runs', async () => {
    const theirs = await createChat(mock, {}, 'same-user');
    expect(outcome(await send(mock, theirs.id, { content: 'a' }))).toEqual([
      409,
      'api_v1_sync_requires_auto',
    ]);
    expect(outcome(await send(mock, theirs.id, auto('a')))).toEqual([404, 'api_v1_not_found']);
    expect(mock.store.turns()).toEqual([]);
  });
});

describe('4.3 idempotency', () => {
  it('4.3 same key + same body replays the outcome without running again (same status and data)', async () => {
    const first = await send(mock, chatId, auto('hi'), { key: 'k1' });
    const again = await send(mock, chatId, auto('hi'), { key: 'k1' });
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(first.body.data);
    expect(mock.runs('k1')).toBe(1);
    expect(mock.store.turns()).toHaveLength(1);
  });

  it('4.3 "same body" ignores key order at every depth', async () => {
    await send(
      mock,
      chatId,
      { content: 'a', permission_mode: 'auto', metadata: { x: 1, y: 2 } },
      { key: 'k' },
    );
    const again = await send(
      mock,
      chatId,
      { metadata: { y: 2, x: 1 }, permission_mode: 'auto', content: 'a' },
      { key: 'k' },
    );
    expect(again.status).toBe(200);
    expect(mock.runs('k')).toBe(1);
  });

  it('7.3 same key + different body (or another chat) -> 409 api_v1_idempotency_conflict', async () => {
    await send(mock, chatId, auto('a'), { key: 'k' });
    expect(outcome(await send(mock, chatId, auto('b'), { key: 'k' }))).toEqual([
      409,
      'api_v1_idempotency_conflict',
    ]);
    expect(outcome(await send(mock, crypto.randomUUID(), auto('a'), { key: 'k' }))).toEqual([
      409,
      'api_v1_idempotency_conflict',
    ]);
    expect(mock.runs('k')).toBe(1);
  });

  it('4.3 keys are per credential: the same key of another credential runs its own turn', async () => {
    await send(mock, chatId, auto('a'), { key: 'k' });
    await send(mock, crypto.randomUUID(), auto('a'), { key: 'k', token: 'same-user' });
    expect([mock.runs('k'), mock.runs('k', 'mock-token'), mock.runs('k', 'same-user')]).toEqual([2, 1, 1]);
  });

  it('7.3 a failed turn replays its error too: same status, same data', async () => {
    const body = auto('[[mock:error code=upstream_error]]');
    const first = await send(mock, chatId, body, { key: 'k' });
    const again = await send(mock, chatId, body, { key: 'k' });
    expect(outcome(first)).toEqual([502, 'upstream_error']);
    expect([again.status, again.body.message_code, again.body.data, again.body.meta.error_details]).toEqual([
      first.status,
      first.body.message_code,
      first.body.data,
      first.body.meta.error_details,
    ]);
    expect(mock.runs('k')).toBe(1);
  });

  it('7.3 a key whose turn still runs -> 409 api_v1_turn_in_progress', async () => {
    const { model, open } = gatedModel();
    mock.setModel(model);
    const pending = send(mock, chatId, auto('a'), { key: 'k' });
    await settle();
    expect(outcome(await send(mock, chatId, auto('a'), { key: 'k' }))).toEqual([
      409,
      'api_v1_turn_in_progress',
    ]);
    open();
    expect(turnOf(await pending).content).toBe('first second');
    expect(turnOf(await send(mock, chatId, auto('a'), { key: 'k' })).content).toBe('first second');
  });

  it('3.4 a different key while the chat runs a turn -> 409 api_v1_chat_busy with data.message_id', async () => {
    const { model, open } = gatedModel();
    mock.setModel(model);
    const pending = send(mock, chatId, auto('a'), { key: 'k1' });
    await settle();
    mock.setModel(undefined);
    const busy = await send(mock, chatId, auto('b'), { key: 'k2' });
    expect(outcome(busy)).toEqual([409, 'api_v1_chat_busy']);
    expect(errorDataOf(busy)).toEqual({ message_id: 1 });
    // Another chat is free; the busy key was not consumed.
    expect(turnOf(await send(mock, crypto.randomUUID(), auto('c'), { key: 'k3' })).status).toBe('completed');
    open();
    await pending;
    expect(turnOf(await send(mock, chatId, auto('b'), { key: 'k2' })).status).toBe('completed');
  });
});

describe('2.4 message listing', () => {
  it('4.2 messages are chronological turns with prompt, created_at and status, paginated', async () => {
    await send(mock, chatId, auto('one'));
    await send(mock, chatId, auto('two [[mock:error code=upstream_error]]'));
    await send(mock, chatId, auto('three'));
    const messages = await listMessages(mock, chatId);
    expect(messages.map((m) => [m.id, m.prompt, m.status])).toEqual([
      [1, 'one', 'completed'],
      [2, 'two [[mock:error code=upstream_error]]', 'error'],
      [3, 'three', 'completed'],
    ]);
    expect(messages[0]).toMatchObject({
      role: 'assistant',
      content: 'Mock answer: one',
      created_at: '2026-01-02T03:04:05.000Z',
    });
    const page = await call(mock, 'GET', `/api/v1/chats/${chatId}/messages?page=2&size=2`);
    expect(page.body.meta).toMatchObject({ page: 2, size: 2, total: 3 });
    expect((page.body.data as Array<{ id: number }>).map((m) => m.id)).toEqual([3]);
  });

  it('3.2 a running turn is listed with status pending and what it produced so far', async () => {
    const { model, open } = gatedModel();
    mock.setModel(model);
    const pending = send(mock, chatId, auto('a'));
    await settle();
    expect((await listMessages(mock, chatId)).map((m) => [m.status, m.content, m.usage])).toEqual([
      ['pending', 'first ', null],
    ]);
    open();
    await pending;
    expect((await listMessages(mock, chatId)).map((m) => m.status)).toEqual(['completed']);
  });

  it('2.4 the listing shows the same turn fields as the send', async () => {
    const turn = turnOf(
      await send(mock, chatId, auto('x', { metadata: { a: 1 }, attachments: { file_ids: [11] } })),
    );
    const [message] = await listMessages(mock, chatId);
    expect(message).toEqual({ ...turn, prompt: 'x', created_at: '2026-01-02T03:04:05.000Z' });
  });
});
