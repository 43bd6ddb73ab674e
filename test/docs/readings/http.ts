import { expect } from 'vitest';
import { MAX_BODY_BYTES, MAX_TURN_ATTACHMENTS, parseTokenFlag } from '../../../src/mock/index.js';
import {
  auto,
  call,
  createChat,
  createSkill,
  errorDataOf,
  listedIds,
  listMessages,
  outcome,
  send,
  skillOf,
} from '../../mock/helpers.js';
import { fresh, newChat, type ReadingChecks } from './harness.js';

const SKILLS = '/api/v1/skills';

/** The readings of the sections Errors, Authentication and scopes, Lists and Counting. */
export const HTTP_READINGS: ReadingChecks = {
  'Body of a failed response ("body layout and `status` value ... not shown", 7)': async () => {
    const reply = await call(fresh(), 'GET', `/api/v1/chats/${newChat()}`);
    expect(reply.body).toStrictEqual({
      status: 'error',
      message: expect.any(String),
      message_code: 'api_v1_not_found',
      data: null,
      meta: { request_id: expect.stringMatching(/^[0-9a-f-]{36}$/) },
    });
  },

  'Codes for failures the spec does not name': async () => {
    const mock = fresh();
    // The fifth, 500 api_v1_internal_error, answers only a failure of the mock itself: no request causes it.
    const replies = await Promise.all([
      call(mock, 'GET', SKILLS, { token: null }),
      call(mock, 'POST', SKILLS, { body: '{"name":' }),
      call(mock, 'POST', SKILLS, { body: ' '.repeat(MAX_BODY_BYTES + 1) }),
      call(mock, 'POST', SKILLS, { body: { name: 5 } }),
    ]);
    expect(replies.map(outcome)).toEqual([
      [401, 'api_v1_unauthorized'],
      [400, 'api_v1_invalid_json'],
      [413, 'api_v1_payload_too_large'],
      [422, 'api_v1_validation_error'],
    ]);
  },

  'Status of a limit the spec states without an error (skill `name` 255, `description` 500, chat `name` 200, `metadata` 2048 bytes, page `size` 200)':
    async () => {
      const mock = fresh();
      const replies = await Promise.all([
        call(mock, 'POST', SKILLS, { body: { name: 'n'.repeat(256), instructions: 'i' } }),
        call(mock, 'POST', SKILLS, { body: { name: 'n', instructions: 'i', description: 'd'.repeat(501) } }),
        call(mock, 'POST', '/api/v1/chats', { body: { name: 'c'.repeat(201) } }),
        send(mock, newChat(), auto('x', { metadata: { k: 'v'.repeat(2048) } })),
        call(mock, 'GET', `${SKILLS}?size=201`),
        call(mock, 'POST', SKILLS, { body: { name: 'n', instructions: 'i'.repeat(12_001) } }),
      ]);
      expect(replies.map(outcome)).toEqual([
        ...Array(5).fill([422, 'api_v1_validation_error']),
        [422, 'prompt_text_too_long'],
      ]);
    },

  '`data` of `api_v1_validation_error`': async () => {
    const reply = await send(fresh(), newChat(), auto('x', { attachments: { file_ids: [11, 'twelve'] } }));
    expect(errorDataOf(reply)).toEqual([{ field: 'attachments.file_ids.1', message: expect.any(String) }]);
  },

  'A body field the contract does not name (a typo such as `permision_mode`, at any depth of a body but inside `metadata`)':
    async () => {
      const mock = fresh();
      const typo = await send(mock, newChat(), auto('x', { attachments: { file_idz: [11] } }));
      const inMetadata = await send(mock, newChat(), auto('x', { metadata: { anything: { at: 'all' } } }));
      expect([errorDataOf(typo), inMetadata.status]).toEqual([
        [{ field: 'attachments.file_idz', message: 'is not a field of this request (misspelled?)' }],
        200,
      ]);
    },

  'A query field the contract does not name (`?pgae=2`, `?_=1700000000`, on any endpoint)': async () => {
    const mock = fresh();
    await createSkill(mock);
    const chat = await createChat(mock);
    const plain = await call(mock, 'GET', `${SKILLS}?size=1`);
    const extra = await call(mock, 'GET', `${SKILLS}?size=1&pgae=2&_=1700000000`);
    const one = await call(mock, 'GET', `/api/v1/chats/${chat.id}?_=1700000000`);
    expect([extra.status, extra.body.data, extra.body.meta.page, one.status]).toEqual([
      200,
      plain.body.data,
      1,
      200,
    ]);
  },

  'An unknown path, a `skill_id` that is not an integer, a `chat_id` that is not a UUID': async () => {
    const mock = fresh();
    const replies = await Promise.all([
      call(mock, 'GET', '/api/v1/nowhere'),
      call(mock, 'GET', `${SKILLS}/abc`),
      call(mock, 'GET', '/api/v1/chats/not-a-uuid'),
      call(mock, 'GET', '/api/v1/nowhere', { token: null }),
    ]);
    expect(replies.map(outcome)).toEqual([
      ...Array(3).fill([404, 'api_v1_not_found']),
      [401, 'api_v1_unauthorized'],
    ]);
  },

  'Which error wins when several apply': async () => {
    const mock = fresh();
    const chat = newChat();
    const replies = await Promise.all([
      // scope before body; body before key; key before 422; 422 before 409 sync; 409 sync before 403 scope.
      call(mock, 'POST', SKILLS, { token: 'read-only', body: '{' }),
      send(mock, chat, '{', { key: null }),
      send(mock, chat, { content: 'c'.repeat(64_001) }, { key: null }),
      send(mock, chat, { content: 'c'.repeat(64_001), permission_mode: 'manual' }),
      send(
        mock,
        chat,
        { content: 'x', permission_mode: 'manual', attachments: { file_ids: [11] } },
        {
          token: 'chat-only',
        },
      ),
      // skills: existence 404 before policy 403.
      call(mock, 'PATCH', `${SKILLS}/9`, { body: { workspace_id: 99 } }),
    ]);
    expect(replies.map(outcome)).toEqual([
      [403, 'api_token_scope_not_allowed'],
      [400, 'api_v1_invalid_json'],
      [400, 'api_v1_idempotency_key_required'],
      [422, 'api_v1_content_too_long'],
      [409, 'api_v1_sync_requires_auto'],
      [404, 'api_v1_not_found'],
    ]);
  },

  "Statuses of turn codes on the synchronous send beyond 7.3's rows": async () => {
    const mock = fresh();
    const chat = newChat();
    const persistence = await send(mock, chat, auto('[[mock:error code=persistence_failed]]'));
    const outcomeUnknown = await send(mock, chat, auto('[[mock:error code=idempotency_outcome_unknown]]'));
    const invented = await send(mock, chat, auto('[[mock:error code=model_refused]]'));
    expect([
      [...outcome(persistence), persistence.body.data],
      [...outcome(outcomeUnknown), outcomeUnknown.body.data],
      [...outcome(invented), invented.body.data],
    ]).toEqual([
      [503, 'api_v1_core_unavailable', { code: 'persistence_failed' }],
      [409, 'api_v1_core_unavailable', { code: 'idempotency_outcome_unknown' }],
      [502, 'model_refused', { chat_id: chat, message_id: 3 }],
    ]);
  },

  'Values of the outage `details`': async () => {
    const reply = await send(fresh(), newChat(), auto('[[mock:error code=upstream_error]]'));
    expect(reply.body.meta.error_details).toEqual({
      schema_version: 1,
      service: 'conversation',
      service_code: 'upstream_error',
      dependency: 'model-provider',
      operation: 'turn',
      failure_kind: 'upstream_failure',
      operation_outcome: 'failed',
      retryable: false,
      retry_action: 'check_status',
      request_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
  },

  'Status and code without a valid token (the spec only says every request carries one)': async () => {
    const mock = fresh();
    const replies = await Promise.all(
      [undefined, 'Basic bW9jaw==', 'Bearer nobody', 'bEaReR mock-token'].map((authorization) =>
        call(mock, 'GET', SKILLS, {
          token: null,
          headers: authorization === undefined ? {} : { authorization },
        }),
      ),
    );
    expect(replies.map((reply) => [...outcome(reply), reply.body.message])).toEqual([
      ...Array(3).fill([401, 'api_v1_unauthorized', 'A valid bearer token is required.']),
      [200, 'api_v1_ok', 'OK'],
    ]);
  },

  'How tokens are issued, their lifetime, how scopes are granted ("not shown", 5)': async () => {
    let now = Date.UTC(2026, 0, 1);
    const mock = fresh({ clock: { now: () => now } });
    now += 10 * 365 * 86_400_000;
    expect([parseTokenFlag('ci=skills:read,chat:write@2'), (await call(mock, 'GET', SKILLS)).status]).toEqual(
      [{ token: 'ci', scopes: ['skills:read', 'chat:write'], userId: 2 }, 200],
    );
  },

  "An endpoint's own scope missing (the spec spells the 403 out for attachments)": async () => {
    const reply = await call(fresh(), 'POST', SKILLS, {
      token: 'read-only',
      body: { name: 'n', instructions: 'i' },
    });
    expect([...outcome(reply), reply.body.data]).toEqual([
      403,
      'api_token_scope_not_allowed',
      { required_scopes: ['skills:write'] },
    ]);
  },

  'An empty attachment list': async () => {
    const empty = { workspace_ids: [], file_ids: [], skill_ids: [], mcp_server_ids: [] };
    const reply = await send(fresh(), newChat(), auto('x', { attachments: empty }), { token: 'chat-only' });
    expect(reply.status).toBe(200);
  },

  'An attachment that does not exist or that the credential cannot use': async () => {
    const attachments = { workspace_ids: [1], file_ids: [999, 21, 999] };
    const reply = await send(fresh(), newChat(), auto('x', { attachments }), { token: 'allow-libs' });
    expect([...outcome(reply), reply.body.data]).toEqual([
      404,
      'api_v1_not_found',
      { field: 'attachments.workspace_ids', ids: [1] },
    ]);
  },

  'Rate limits ("not shown", 8)': async () => {
    const mock = fresh();
    const replies = await Promise.all(Array.from({ length: 200 }, () => call(mock, 'GET', SKILLS)));
    expect(new Set(replies.map((reply) => reply.status))).toEqual(new Set([200]));
  },

  'A `size` over 200, a `size` or `page` below 1, a value that is not an integer': async () => {
    const mock = fresh();
    const queries = ['size=201', 'size=0', 'page=0', 'page=1.5', 'size=ten'];
    const replies = await Promise.all(queries.map((query) => call(mock, 'GET', `${SKILLS}?${query}`)));
    expect(replies.map(outcome)).toEqual(Array(5).fill([422, 'api_v1_validation_error']));
  },

  'A page beyond the end': async () => {
    const mock = fresh();
    await createSkill(mock);
    const reply = await call(mock, 'GET', `${SKILLS}?page=5&size=10`);
    expect([reply.status, reply.body.data, reply.body.meta]).toEqual([
      200,
      [],
      { request_id: expect.any(String), page: 5, size: 10, total: 1 },
    ]);
  },

  'Order of skills': async () => {
    const mock = fresh();
    for (const name of ['c', 'a', 'b']) await createSkill(mock, { name });
    expect(await listedIds(mock)).toEqual([1, 2, 3]);
  },

  'Order of chats created in the same millisecond ("newest first")': async () => {
    const mock = fresh({ clock: { now: () => Date.UTC(2026, 0, 1) } });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await createChat(mock)).id);
    const reply = await call(mock, 'GET', '/api/v1/chats');
    expect((reply.body.data as Array<{ id: string }>).map((chat) => chat.id)).toEqual(ids.reverse());
  },

  "Order of the catalog's blocks": async () => {
    const mock = fresh();
    for (const name of ['z', 'a']) await createSkill(mock, { name });
    const { data } = (await call(mock, 'GET', '/api/v1/chat/catalog')).body as {
      data: Record<string, Array<{ id: number }>>;
    };
    const ids = (block: string) => data[block]?.map((item) => item.id);
    expect(['models', 'libraries', 'skills', 'connectors'].map(ids)).toEqual([
      [1, 2],
      [1, 2],
      [1, 2],
      [1, 2],
    ]);
  },

  'What a "character" is (names, descriptions, instructions, content)': async () => {
    const mock = fresh();
    const names = ['😀'.repeat(255), '😀'.repeat(256), `${'e\u0301'.repeat(127)}e`, 'e\u0301'.repeat(128)];
    const replies = await Promise.all(
      names.map((name) => call(mock, 'POST', SKILLS, { body: { name, instructions: 'i' } })),
    );
    expect(replies.map((reply) => reply.status)).toEqual([201, 422, 201, 422]);
  },

  'What the 2048 "serialized bytes" of `metadata` count': async () => {
    const mock = fresh();
    // `{"k":"…"}` is 8 bytes around the value; the body's own whitespace is not counted.
    const body = (length: number) =>
      JSON.stringify(auto('x', { metadata: { k: 'é'.repeat(length / 2) } }), null, 40);
    const replies = [await send(mock, newChat(), body(2040)), await send(mock, newChat(), body(2042))];
    expect(replies.map(outcome)).toEqual([
      [200, 'api_v1_ok'],
      [422, 'api_v1_validation_error'],
    ]);
  },

  'The limit behind `api_v1_too_many_attachments` ("not shown", 8)': async () => {
    const mock = fresh();
    const ids = (count: number) => ({ attachments: { file_ids: Array(count).fill(11) } });
    const replies = [
      await send(mock, newChat(), auto('x', ids(MAX_TURN_ATTACHMENTS))),
      await send(mock, newChat(), auto('x', ids(MAX_TURN_ATTACHMENTS + 1))),
    ];
    expect([MAX_TURN_ATTACHMENTS, ...replies.map(outcome)]).toEqual([
      20,
      [200, 'api_v1_ok'],
      [422, 'api_v1_too_many_attachments'],
    ]);
  },

  'Largest request body': async () => {
    const mock = fresh();
    // 64,001 characters outside the BMP, each written as two `\uXXXX` escapes: 768 KB of JSON.
    const escaped = `{"content":"${'\\ud83d\\ude00'.repeat(64_001)}","permission_mode":"auto"}`;
    const replies = [
      await send(mock, newChat(), escaped),
      await send(mock, newChat(), `{"content":"x"${' '.repeat(MAX_BODY_BYTES)}}`),
    ];
    expect([MAX_BODY_BYTES, ...replies.map(outcome)]).toEqual([
      8 * 1024 * 1024,
      [422, 'api_v1_content_too_long'],
      [413, 'api_v1_payload_too_large'],
    ]);
  },

  '`usage` numbers': async () => {
    const reply = await send(fresh(), newChat(), auto('hello [[mock:failover]] world'));
    // `Mock answer: hello world` replaced by `(failover) Mock answer: hello world`: 5 words.
    expect(reply.body.data).toMatchObject({
      usage: {
        prompt_tokens: 3,
        completion_tokens: 5,
        total_tokens: 8,
        reasoning_tokens: 0,
        model: 'mock-large',
        provider: 'mock',
      },
    });
  },

  'When `usage` is null ("null if the turn consumed nothing")': async () => {
    const mock = fresh();
    const chat = newChat();
    await send(mock, chat, auto('[[mock:error code=upstream_error]]'));
    await send(mock, chat, auto('[[mock:error code=idempotency_outcome_unknown]]'));
    const usage = (await listMessages(mock, chat)).map((message) => message.usage);
    expect(usage).toEqual([null, expect.objectContaining({ completion_tokens: 2 })]);
  },
};

/** The readings of the section Skills. */
export const SKILL_READINGS: ReadingChecks = {
  'Whether `shared_user_ids` appears in responses ("not shown", 2.2)': async () => {
    const mock = fresh();
    const skill = await createSkill(mock, { visibility: 'shared', shared_user_ids: [2, 3, 2] });
    expect([Object.keys(skill), mock.store.skills()[0]?.shared_user_ids]).toEqual([
      [
        'id',
        'name',
        'description',
        'instructions',
        'icon',
        'level',
        'visibility',
        'workspace_id',
        'is_active',
        'created_at',
      ],
      [2, 3],
    ]);
  },

  'Who "its own" is': async () => {
    const mock = fresh();
    const skill = await createSkill(mock, { visibility: 'private' });
    expect([await listedIds(mock, 'same-user'), await listedIds(mock, 'coworker')]).toEqual([[skill.id], []]);
  },

  'Who may change a visible skill': async () => {
    const mock = fresh();
    const skill = await createSkill(mock, { level: 'company' });
    const reply = await call(mock, 'PATCH', `${SKILLS}/${skill.id}`, {
      token: 'coworker',
      body: { name: 'Ours' },
    });
    expect(skillOf(reply).name).toBe('Ours');
  },

  '`level` sent on update ("not editable")': async () => {
    const mock = fresh();
    const skill = await createSkill(mock);
    const reply = await call(mock, 'PATCH', `${SKILLS}/${skill.id}`, {
      body: { level: 'company', name: 'x' },
    });
    expect([errorDataOf(reply), mock.store.skills()[0]?.name]).toEqual([
      [{ field: 'level', message: 'is fixed after creation' }],
      'Tone',
    ]);
  },

  '`workspace_id` with a level other than `workspace`': async () => {
    const mock = fresh();
    const kept = await createSkill(mock, { level: 'company', workspace_id: 1 });
    const outside = await call(mock, 'POST', SKILLS, {
      body: { name: 'n', instructions: 'i', workspace_id: 99 },
    });
    expect([kept.workspace_id, ...outcome(outside)]).toEqual([null, 403, 'api_v1_resource_not_allowed']);
  },

  'A `workspace` skill created without `workspace_id` (4.1 marks it optional; 2.2 does not say what such a skill belongs to)':
    async () => {
      const mock = fresh();
      const skill = await createSkill(mock, { level: 'workspace' });
      const later = await call(mock, 'PATCH', `${SKILLS}/${skill.id}`, { body: { workspace_id: 2 } });
      expect([skill.workspace_id, skillOf(later).workspace_id]).toEqual([null, 2]);
    },

  'Defaults of `icon` and `description`': async () => {
    const skill = await createSkill(fresh());
    expect([skill.icon, skill.description]).toEqual(['sparkles', '']);
  },

  'The `{{type:id}}` types': async () => {
    const mock = fresh();
    await createSkill(mock);
    const valid = '{{library:1}} {{file:11}} {{connector:1}} {{tool:1}} {{skill:1}}';
    const replies = [
      await call(mock, 'POST', SKILLS, { body: { name: 'n', instructions: valid } }),
      await call(mock, 'POST', SKILLS, { body: { name: 'n', instructions: '{{tool:2}} {{workspace:1}}' } }),
    ];
    expect([replies[0]?.status, ...outcome(replies[1]!), replies[1]?.body.data]).toEqual([
      201,
      422,
      'prompt_refs_invalid',
      [{ tool: [2], workspace: [1] }],
    ]);
  },

  'How invalid references are grouped in `data[0]` ("not shown", 7.2)': async () => {
    const instructions = '{{library:99}} {{file:12345}} {{library:98}} {{library:99}} {{file:x}}';
    const reply = await call(fresh(), 'POST', SKILLS, { body: { name: 'n', instructions } });
    expect(reply.body.data).toEqual([{ library: [99, 98], file: [12345, 'x'] }]);
  },

  'Revalidation on update when `instructions` are resent unchanged': async () => {
    const mock = fresh();
    const cited = await createSkill(mock);
    const citing = await createSkill(mock, { instructions: `{{skill:${cited.id}}}` });
    await call(mock, 'DELETE', `${SKILLS}/${cited.id}`);
    const path = `${SKILLS}/${citing.id}`;
    const same = await call(mock, 'PATCH', path, { body: { instructions: `{{skill:${cited.id}}}` } });
    const changed = await call(mock, 'PATCH', path, { body: { instructions: `{{skill:${cited.id}}} ` } });
    expect([same.status, ...outcome(changed)]).toEqual([200, 422, 'prompt_refs_invalid']);
  },

  '`GET /users` ("its shape: not shown", 4.1)': async () => {
    const mock = fresh();
    const ours = await call(mock, 'GET', '/api/v1/users', { token: 'no-scope' });
    const theirs = await call(mock, 'GET', '/api/v1/users?size=1', { token: 'other-co' });
    expect([ours.status, ours.body.data, ours.body.meta, theirs.body.data]).toEqual([
      200,
      [{ id: 1 }, { id: 2 }, { id: 3 }],
      { request_id: expect.any(String), page: 1, size: 50, total: 3 },
      [{ id: 4 }],
    ]);
  },
};
