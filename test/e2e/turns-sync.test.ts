import { expect, vi } from 'vitest';
import { apiError } from '../support/api-error.js';
import { type Case, needsInProcessMock, runOnTargets } from './run-targets.js';
import type { Target } from './targets.js';

const newChatId = () => crypto.randomUUID();

/** A raw synchronous send, past the client's checks. */
function rawSend(t: Target, chatId: string, body: unknown, key: string | null = crypto.randomUUID()) {
  return t.raw(`/api/v1/chats/${chatId}/messages`, {
    method: 'POST',
    body,
    headers: key === null ? {} : { 'idempotency-key': key },
  });
}

/**
 * The id of the turn running in `chatId`, once the service lists it: the send is then in flight, however
 * long it took to arrive (10 s at most, a hang guard).
 */
function runningTurnId(t: Target, chatId: string): Promise<number> {
  return vi.waitFor(
    async () => {
      const page = await t.client().chats.messages(chatId);
      const running = page.items.find((message) => message.status === 'pending');
      if (!running) throw new Error(`no turn runs in ${chatId} yet`);
      return running.id;
    },
    { timeout: 10_000, interval: 10 },
  );
}

const cases: Case[] = [
  [
    '4.3 a synchronous turn returns the completed turn: assistant content, usage, steps, sources, metadata',
    async (t) => {
      const turn = await t
        .client()
        .turns.send(newChatId(), { content: 'Hello there', metadata: { order: 42 } });
      expect(turn).toMatchObject({
        role: 'assistant',
        status: 'completed',
        metadata: { order: 42 },
        sources: [],
      });
      expect(turn.content.length).toBeGreaterThan(0);
      expect(turn.usage).toMatchObject({
        prompt_tokens: expect.any(Number),
        completion_tokens: expect.any(Number),
        total_tokens: expect.any(Number),
        model: expect.any(String),
        provider: expect.any(String),
      });
      expect(Array.isArray(turn.steps)).toBe(true);
      expect(turn).not.toHaveProperty('prompt');
    },
  ],
  [
    'reading: usage counts whitespace-separated words as tokens (the prompt as sent); reasoning 0; provider mock',
    async (t) => {
      const turn = await t
        .client()
        .turns.send(newChatId(), { content: 'three small words [[mock:words n=4]]' });
      expect(turn.usage).toEqual({
        prompt_tokens: 5,
        completion_tokens: 4,
        total_tokens: 9,
        reasoning_tokens: 0,
        model: 'mock-large',
        provider: 'mock',
      });
    },
  ],
  [
    'reading: a plain answer is "Mock answer: " and the content without its directives',
    async (t) => {
      const turn = await t.client().turns.send(newChatId(), { content: 'Hello [[mock:slow ms=1]] there' });
      expect(turn.content).toBe('Mock answer: Hello there');
    },
  ],
  [
    '3.4 sending to a chat id that does not exist creates the chat with that id',
    async (t) => {
      const chatId = newChatId();
      await t.client().turns.send(chatId, { content: 'hi' });
      expect((await t.client().chats.get(chatId)).id).toBe(chatId);
    },
  ],
  [
    '4.2 the message listing holds the turns in order, each with prompt and created_at',
    async (t) => {
      const chatId = newChatId();
      const first = await t.client().turns.send(chatId, { content: 'first question' });
      const second = await t.client().turns.send(chatId, { content: 'second question' });
      const page = await t.client().chats.messages(chatId);
      expect(page.items.map((m) => [m.id, m.prompt, m.status])).toEqual([
        [first.id, 'first question', 'completed'],
        [second.id, 'second question', 'completed'],
      ]);
      expect(page.items[0]?.content).toBe(first.content);
      expect(Date.parse(page.items[0]!.created_at)).toBeLessThanOrEqual(
        Date.parse(page.items[1]!.created_at),
      );
    },
  ],
  [
    'reading: usage.model is the code of the model that ran: the chat model by default, model_id per turn over it',
    async (t) => {
      const chat = await t.client().chats.create({ model_id: 2 });
      expect((await t.client().turns.send(chat.id, { content: 'a' })).usage?.model).toBe('mock-small');
      expect((await t.client().turns.send(chat.id, { content: 'b', model_id: 1 })).usage?.model).toBe(
        'mock-large',
      );
    },
  ],
  [
    '4.3 metadata is echoed verbatim, hostile keys included, and pollutes nothing',
    async (t) => {
      const metadata = JSON.parse(
        '{"__proto__":{"polluted":true},"constructor":{"x":1},"nested":{"a":[1,"é"]}}',
      );
      const turn = await t.client().turns.send(newChatId(), { content: 'hi', metadata });
      expect(JSON.stringify(turn.metadata)).toBe(JSON.stringify(metadata));
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    },
  ],
  [
    '4.3 same key and body replays the stored turn without running it again',
    async (t, context) => {
      const chatId = newChatId();
      const first = await t
        .client()
        .turns.send(chatId, { content: 'once' }, { idempotencyKey: 'replay-key-1' });
      const again = await t
        .client()
        .turns.send(chatId, { content: 'once' }, { idempotencyKey: 'replay-key-1' });
      expect(again).toEqual(first);
      expect((await t.client().chats.messages(chatId)).total).toBe(1);
      if (t.mock) expect(t.mock.runs('replay-key-1')).toBe(1);
      else context.annotate('run counter not checked: external server');
    },
  ],
  [
    '4.3 same key + different body -> 409 api_v1_idempotency_conflict',
    async (t) => {
      const chatId = newChatId();
      await t.client().turns.send(chatId, { content: 'one' }, { idempotencyKey: 'conflict-key' });
      const error = await apiError(
        t.client().turns.send(chatId, { content: 'two' }, { idempotencyKey: 'conflict-key' }),
      );
      expect([error.status, error.code]).toEqual([409, 'api_v1_idempotency_conflict']);
    },
  ],
  [
    '7.3 no Idempotency-Key -> 400 api_v1_idempotency_key_required',
    async (t) => {
      const reply = await rawSend(t, newChatId(), { content: 'x', permission_mode: 'auto' }, null);
      expect([reply.status, reply.body.message_code]).toEqual([400, 'api_v1_idempotency_key_required']);
    },
  ],
  [
    '7.3 permission_mode other than auto -> 409 api_v1_sync_requires_auto',
    async (t) => {
      for (const body of [{ content: 'x' }, { content: 'x', permission_mode: 'manual' }]) {
        const reply = await rawSend(t, newChatId(), body);
        expect([reply.status, reply.body.message_code]).toEqual([409, 'api_v1_sync_requires_auto']);
      }
    },
  ],
  [
    '7.3 content over 64,000 characters -> 422 api_v1_content_too_long',
    async (t) => {
      const reply = await rawSend(t, newChatId(), { content: 'x'.repeat(64_001), permission_mode: 'auto' });
      expect([reply.status, reply.body.message_code]).toEqual([422, 'api_v1_content_too_long']);
    },
  ],
  [
    'reading: more than 20 attachment ids in all -> 422 api_v1_too_many_attachments; 20 pass',
    async (t) => {
      const send = (count: number) =>
        rawSend(t, newChatId(), {
          content: 'x',
          permission_mode: 'auto',
          attachments: { file_ids: Array.from({ length: count - 1 }, () => 11), workspace_ids: [1] },
        });
      const over = await send(21);
      expect([over.status, over.body.message_code]).toEqual([422, 'api_v1_too_many_attachments']);
      expect((await send(20)).status).toBe(200);
    },
  ],
  [
    'reading: metadata counts the UTF-8 bytes of its JSON: 2048 pass, 2049 -> 422 api_v1_validation_error',
    async (t) => {
      // {"k":"…"} is 8 bytes around the value; é is 2 bytes.
      const metadata = (bytes: number) => ({
        k: `${'é'.repeat(Math.floor((bytes - 8) / 2))}${'x'.repeat((bytes - 8) % 2)}`,
      });
      const send = (bytes: number) =>
        rawSend(t, newChatId(), { content: 'x', permission_mode: 'auto', metadata: metadata(bytes) });
      expect((await send(2048)).status).toBe(200);
      const over = await send(2049);
      expect([over.status, over.body.message_code]).toEqual([422, 'api_v1_validation_error']);
    },
  ],
  [
    'reading: an attachment the credential cannot use -> 404 api_v1_not_found naming the list and ids',
    async (t) => {
      const reply = await rawSend(t, newChatId(), {
        content: 'x',
        permission_mode: 'auto',
        attachments: { workspace_ids: [1, 99] },
      });
      expect([reply.status, reply.body.message_code]).toEqual([404, 'api_v1_not_found']);
      expect(reply.body.data).toEqual({ field: 'attachments.workspace_ids', ids: [99] });
    },
  ],
  [
    '5 an attachment without its scope -> 403 api_token_scope_not_allowed with required_scopes',
    async (t) => {
      const error = await apiError(
        t
          .client('chatOnly')
          .turns.send(newChatId(), { content: 'x', attachments: { workspace_ids: [1], skill_ids: [] } }),
      );
      expect([error.status, error.code]).toEqual([403, 'api_token_scope_not_allowed']);
      if (!error.is('api_token_scope_not_allowed')) throw error;
      expect(error.data.required_scopes).toContain('libraries:read');
    },
  ],
  [
    'reading: sources are the files of the attached libraries, ranked from score 0.95 down',
    async (t) => {
      const turn = await t
        .client()
        .turns.send(newChatId(), { content: 'x', attachments: { workspace_ids: [1] } });
      expect(turn.sources.map((s) => [s.workspace_id, s.file_id])).toEqual([
        [1, 11],
        [1, 12],
      ]);
      expect(turn.sources.map((s) => s.score)).toEqual([0.95, 0.9]);
    },
  ],
  [
    "7.1 another credential's chat -> 404 api_v1_not_found on send",
    async (t) => {
      const chat = await t.client().chats.create();
      const error = await apiError(t.client('fullSameUser').turns.send(chat.id, { content: 'x' }));
      expect([error.status, error.code]).toEqual([404, 'api_v1_not_found']);
    },
  ],
  [
    '3.4 a chat runs one turn at a time: another key while one runs -> 409 api_v1_chat_busy with its message_id',
    async (t) => {
      const chatId = newChatId();
      // A turn that runs until cancelled: the second send meets it however busy the machine is.
      const running = t.client().turns.send(chatId, { content: '[[mock:hang]]' });
      const runningId = await runningTurnId(t, chatId);
      const error = await apiError(t.client().turns.send(chatId, { content: 'second' }));
      expect([error.status, error.code]).toEqual([409, 'api_v1_chat_busy']);
      await t.client().turns.cancel(chatId);
      const first = await running;
      if (!error.is('api_v1_chat_busy')) throw error;
      expect([error.data.message_id, first.id, first.status]).toEqual([runningId, runningId, 'cancelled']);
    },
  ],
  [
    '7.3 the same key while its turn runs -> 409 api_v1_turn_in_progress, which the client polls to the one outcome',
    async (t, context) => {
      const chatId = newChatId();
      // About a second of turn after it is seen running: room for a busy machine's raw send to meet it.
      const body = { content: '[[mock:words n=4]] [[mock:slow ms=250]]' };
      const running = t.client().turns.send(chatId, body, { idempotencyKey: 'poll-key' });
      await runningTurnId(t, chatId);
      const raw = await rawSend(t, chatId, { ...body, permission_mode: 'auto' }, 'poll-key');
      expect([raw.status, raw.body.message_code]).toEqual([409, 'api_v1_turn_in_progress']);
      const polled = await t.client().turns.send(chatId, body, { idempotencyKey: 'poll-key' });
      expect(polled).toEqual(await running);
      if (t.mock) expect(t.mock.runs('poll-key')).toBe(1);
      else context.annotate('run counter not checked: external server');
    },
  ],
  [
    '7.3 a model failure -> 502 upstream_error with chat_id and message_id, the same on replay',
    async (t) => {
      const chatId = newChatId();
      const body = { content: '[[mock:error code=upstream_error]]' };
      const error = await apiError(t.client().turns.send(chatId, body, { idempotencyKey: 'upstream-key' }));
      expect([error.status, error.code]).toEqual([502, 'upstream_error']);
      if (!error.is('upstream_error')) throw error;
      expect(error.data.chat_id).toBe(chatId);
      const replay = await apiError(t.client().turns.send(chatId, body, { idempotencyKey: 'upstream-key' }));
      expect(replay.data).toEqual(error.data);
      const [listed] = (await t.client().chats.messages(chatId)).items;
      expect([listed?.id, listed?.status]).toEqual([error.data.message_id, 'error']);
    },
  ],
  [
    '7.3 a turn past its deadline -> 504 turn_timeout with chat_id and message_id',
    async (t) => {
      const error = await apiError(
        t.client().turns.send(newChatId(), { content: '[[mock:error code=turn_timeout]]' }),
      );
      expect([error.status, error.code]).toEqual([504, 'turn_timeout']);
      if (!error.is('turn_timeout')) throw error;
      expect(Number.isInteger(error.data.message_id)).toBe(true);
    },
  ],
  [
    '4.3 an interaction on the synchronous channel -> 502 interaction_in_auto_mode',
    async (t) => {
      for (const directive of ['plan_approval', 'elicitation', 'auth_required']) {
        const error = await apiError(
          t.client().turns.send(newChatId(), { content: `[[mock:${directive}]]` }),
        );
        expect([error.status, error.code]).toEqual([502, 'interaction_in_auto_mode']);
      }
    },
  ],
  [
    '4.3 a tool in auto mode runs without asking: a step carries it in tool_calls',
    async (t) => {
      const turn = await t.client().turns.send(newChatId(), { content: '[[mock:tool_approval]] search' });
      const calls = turn.steps.flatMap((s) => s.tool_calls ?? []);
      expect(calls.map((c) => [c.tool_use_id, c.name, c.server])).toEqual([['toolu_1', 'search', 'github']]);
    },
  ],
  [
    'done when: a send whose first attempt loses its connection after the mock received it returns the turn; one run',
    async (t, context) => {
      const mock = needsInProcessMock(t, context);
      mock.faults.add({ route: 'send', drop: 'before-response' });
      const turn = await t
        .client()
        .turns.send(newChatId(), { content: 'lost once' }, { idempotencyKey: 'drop-key' });
      expect(turn.status).toBe('completed');
      expect(mock.runs('drop-key')).toBe(1);
    },
  ],
  [
    '7.3 503 persistence_failed is repeated with the same key and returns the stored turn; one run',
    async (t, context) => {
      const mock = needsInProcessMock(t, context);
      mock.faults.add({
        route: 'send',
        respond: {
          status: 503,
          code: 'api_v1_core_unavailable',
          data: { code: 'persistence_failed' },
          afterRun: true,
        },
      });
      const turn = await t
        .client()
        .turns.send(newChatId(), { content: 'saved?' }, { idempotencyKey: 'persist-key' });
      expect(turn.status).toBe('completed');
      expect(mock.runs('persist-key')).toBe(1);
    },
  ],
  [
    '7.3 409 idempotency_outcome_unknown is repeated with the same key and returns the stored turn; one run',
    async (t, context) => {
      const mock = needsInProcessMock(t, context);
      mock.faults.add({
        route: 'send',
        respond: {
          status: 409,
          code: 'api_v1_core_unavailable',
          data: { code: 'idempotency_outcome_unknown' },
          afterRun: true,
        },
      });
      const turn = await t
        .client()
        .turns.send(newChatId(), { content: 'closed elsewhere' }, { idempotencyKey: 'iou-key' });
      expect(turn.status).toBe('completed');
      expect(mock.runs('iou-key')).toBe(1);
    },
  ],
  [
    '7.3 a non-retryable answer is thrown after exactly one request',
    async (t, context) => {
      const mock = needsInProcessMock(t, context);
      mock.faults.add({
        route: 'send',
        respond: { status: 409, code: 'api_v1_chat_busy', data: { message_id: 1 } },
      });
      const requests: string[] = [];
      const client = t.client('full', { logger: { debug: (line) => requests.push(line) } });
      const error = await apiError(
        client.turns.send(newChatId(), { content: 'x' }, { idempotencyKey: 'busy-key' }),
      );
      expect(error.code).toBe('api_v1_chat_busy');
      expect(requests).toHaveLength(1);
      expect(mock.runs('busy-key')).toBe(0);
    },
  ],
];

runOnTargets('synchronous turns', cases);
