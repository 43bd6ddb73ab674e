import { beforeEach, describe, expect, it } from 'vitest';
import { ChatDeletedSchema } from '../../src/contract/chat.js';
import { type ConvoMock, createMock } from '../../src/mock/index.js';
import { auto, CHAT_TOKENS, call, chatOf, createChat, errorDataOf, outcome, send } from './helpers.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let mock: ConvoMock;
let now: number;
beforeEach(() => {
  now = Date.parse('2026-01-02T03:04:05.000Z');
  mock = createMock({ tokens: CHAT_TOKENS, clock: { now: () => now } });
});

async function listIds(query = '', token = 'mock-token'): Promise<string[]> {
  const reply = await call(mock, 'GET', `/api/v1/chats${query}`, { token });
  expect(reply.status).toBe(200);
  return (reply.body.data as Array<{ id: string }>).map((chat) => chat.id);
}

describe('4.2 create', () => {
  it('4.2 create answers 201 with an empty chat and the defaults of 2.3 (manual, no name, no model)', async () => {
    const reply = await call(mock, 'POST', '/api/v1/chats', { body: {} });
    expect(reply.status).toBe(201);
    const chat = chatOf(reply);
    expect(chat.id).toMatch(UUID);
    expect(chat).toEqual({
      id: chat.id,
      name: null,
      is_favorite: false,
      permission_mode: 'manual',
      model_id: null,
      created_at: '2026-01-02T03:04:05.000Z',
      updated_at: '2026-01-02T03:04:05.000Z',
    });
  });

  it('4.2 create keeps name, model_id and permission_mode', async () => {
    const chat = await createChat(mock, { name: 'Plans', model_id: 2, permission_mode: 'auto' });
    expect(chat).toMatchObject({ name: 'Plans', model_id: 2, permission_mode: 'auto' });
  });

  it('8 chat name: 200 characters pass, 201 -> 422 api_v1_validation_error', async () => {
    await createChat(mock, { name: '€'.repeat(200) });
    const reply = await call(mock, 'POST', '/api/v1/chats', { body: { name: 'x'.repeat(201) } });
    expect(outcome(reply)).toEqual([422, 'api_v1_validation_error']);
    expect(errorDataOf(reply)).toEqual([
      { field: 'name', message: 'must be at most 200 characters', limit: 200 },
    ]);
  });

  it('4.2 model_id must be a COMPLETION model of the catalog: 3 (EMBEDDING) and 99 -> 422', async () => {
    for (const model_id of [3, 99]) {
      const reply = await call(mock, 'POST', '/api/v1/chats', { body: { model_id } });
      expect(outcome(reply)).toEqual([422, 'api_v1_validation_error']);
      expect(errorDataOf(reply)).toEqual([
        { field: 'model_id', message: 'must be a COMPLETION model of the catalog' },
      ]);
    }
  });

  it('4.2 mistyped fields -> 422 api_v1_validation_error naming each', async () => {
    const reply = await call(mock, 'POST', '/api/v1/chats', {
      body: { name: 5, model_id: 1.5, permission_mode: 'plan' },
    });
    expect(outcome(reply)).toEqual([422, 'api_v1_validation_error']);
    expect((errorDataOf(reply) as Array<{ field: string }>).map((issue) => issue.field).sort()).toEqual([
      'model_id',
      'name',
      'permission_mode',
    ]);
  });
});

describe('4.2 read, update, delete', () => {
  it('4.2 get returns the chat', async () => {
    const chat = await createChat(mock, { name: 'A' });
    expect(chatOf(await call(mock, 'GET', `/api/v1/chats/${chat.id}`))).toEqual(chat);
  });

  it('4.2 update sets name and is_favorite; updated_at changes, created_at does not', async () => {
    const chat = await createChat(mock);
    now += 60_000;
    const reply = await call(mock, 'PATCH', `/api/v1/chats/${chat.id}`, {
      body: { name: 'Renamed', is_favorite: true },
    });
    expect(chatOf(reply)).toEqual({
      ...chat,
      name: 'Renamed',
      is_favorite: true,
      updated_at: '2026-01-02T03:05:05.000Z',
    });
  });

  it('4.2 update with mistyped fields -> 422 and nothing changes', async () => {
    const chat = await createChat(mock);
    const reply = await call(mock, 'PATCH', `/api/v1/chats/${chat.id}`, {
      body: { name: null, is_favorite: 'yes' },
    });
    expect(outcome(reply)).toEqual([422, 'api_v1_validation_error']);
    expect(chatOf(await call(mock, 'GET', `/api/v1/chats/${chat.id}`))).toEqual(chat);
  });

  it('4.2 delete answers { id, deleted: true }', async () => {
    const chat = await createChat(mock);
    const reply = await call(mock, 'DELETE', `/api/v1/chats/${chat.id}`);
    expect(reply.status).toBe(200);
    expect(ChatDeletedSchema.parse(reply.body.data)).toEqual({ id: chat.id, deleted: true });
  });

  it('2.3 a deleted chat is gone: get, update, delete, messages and sends -> 404; not listed', async () => {
    const chat = await createChat(mock);
    await call(mock, 'DELETE', `/api/v1/chats/${chat.id}`);
    for (const [method, path] of [
      ['GET', `/api/v1/chats/${chat.id}`],
      ['PATCH', `/api/v1/chats/${chat.id}`],
      ['DELETE', `/api/v1/chats/${chat.id}`],
      ['GET', `/api/v1/chats/${chat.id}/messages`],
    ] as const) {
      expect(outcome(await call(mock, method, path, { body: {} })), `${method} ${path}`).toEqual([
        404,
        'api_v1_not_found',
      ]);
    }
    expect(outcome(await send(mock, chat.id, auto('hi')))).toEqual([404, 'api_v1_not_found']);
    expect(await listIds()).toEqual([]);
    expect(mock.store.turns()).toEqual([]);
  });

  it('7.1 an id that is not a UUID -> 404 api_v1_not_found', async () => {
    expect(outcome(await call(mock, 'GET', '/api/v1/chats/not-a-uuid'))).toEqual([404, 'api_v1_not_found']);
  });
});

describe('1 chats are per credential', () => {
  it('1 two tokens of one user do not see each other’s chats', async () => {
    const mine = await createChat(mock, {}, 'mock-token');
    const theirs = await createChat(mock, {}, 'same-user');
    expect(await listIds('', 'mock-token')).toEqual([mine.id]);
    expect(await listIds('', 'same-user')).toEqual([theirs.id]);
  });

  it('7.1 another credential’s chat answers exactly like a missing one, on every chat endpoint', async () => {
    const theirs = await createChat(mock, {}, 'same-user');
    const missing = crypto.randomUUID();
    for (const [method, suffix] of [
      ['GET', ''],
      ['PATCH', ''],
      ['DELETE', ''],
      ['GET', '/messages'],
    ] as const) {
      const other = await call(mock, method, `/api/v1/chats/${theirs.id}${suffix}`, { body: {} });
      const absent = await call(mock, method, `/api/v1/chats/${missing}${suffix}`, { body: {} });
      expect(outcome(other)).toEqual([404, 'api_v1_not_found']);
      expect([other.body.message, other.body.data]).toEqual([absent.body.message, absent.body.data]);
    }
    const sent = await send(mock, theirs.id, auto('hi'));
    expect(outcome(sent)).toEqual([404, 'api_v1_not_found']);
    expect(mock.store.turns()).toEqual([]);
    // Their chat is untouched.
    expect(chatOf(await call(mock, 'GET', `/api/v1/chats/${theirs.id}`, { token: 'same-user' })).id).toBe(
      theirs.id,
    );
  });
});

describe('4.2 list', () => {
  it('4.2 newest first: by created_at, then by insertion within one instant', async () => {
    const a = await createChat(mock);
    const b = await createChat(mock);
    now += 1000;
    const c = await createChat(mock);
    expect(await listIds()).toEqual([c.id, b.id, a.id]);
  });

  it('4.2 is_favorite=true and =false filter; another value -> 422', async () => {
    const plain = await createChat(mock);
    const starred = await createChat(mock);
    await call(mock, 'PATCH', `/api/v1/chats/${starred.id}`, { body: { is_favorite: true } });
    expect(await listIds('?is_favorite=true')).toEqual([starred.id]);
    expect(await listIds('?is_favorite=false')).toEqual([plain.id]);
    const reply = await call(mock, 'GET', '/api/v1/chats?is_favorite=yes');
    expect(outcome(reply)).toEqual([422, 'api_v1_validation_error']);
    expect(errorDataOf(reply)).toEqual([{ field: 'is_favorite', message: 'must be a boolean' }]);
  });

  it('4 pagination: page and size with meta.page, meta.size, meta.total', async () => {
    const ids = [];
    for (let i = 0; i < 5; i++) {
      ids.unshift((await createChat(mock)).id);
      now += 1;
    }
    const reply = await call(mock, 'GET', '/api/v1/chats?page=2&size=2');
    expect(reply.body.meta).toMatchObject({ page: 2, size: 2, total: 5 });
    expect((reply.body.data as Array<{ id: string }>).map((chat) => chat.id)).toEqual(ids.slice(2, 4));
    expect(outcome(await call(mock, 'GET', '/api/v1/chats?size=201'))).toEqual([
      422,
      'api_v1_validation_error',
    ]);
  });
});

describe('5 scopes of the chat endpoints', () => {
  it('5 reading needs chat:read, writing chat:write: 403 with data.required_scopes', async () => {
    const chat = await createChat(mock);
    const reads = [
      ['GET', '/api/v1/chats'],
      ['GET', `/api/v1/chats/${chat.id}`],
      ['GET', `/api/v1/chats/${chat.id}/messages`],
      ['GET', '/api/v1/chat/catalog'],
    ] as const;
    const writes = [
      ['POST', '/api/v1/chats'],
      ['PATCH', `/api/v1/chats/${chat.id}`],
      ['DELETE', `/api/v1/chats/${chat.id}`],
      ['POST', `/api/v1/chats/${chat.id}/messages`],
      ['POST', `/api/v1/chats/${chat.id}/messages/stream`],
    ] as const;
    for (const [method, path] of reads) {
      const reply = await call(mock, method, path, { token: 'writer' });
      expect([...outcome(reply), reply.body.data], `${method} ${path}`).toEqual([
        403,
        'api_token_scope_not_allowed',
        { required_scopes: ['chat:read'] },
      ]);
    }
    for (const [method, path] of writes) {
      const reply = await call(mock, method, path, { token: 'reader', body: {} });
      expect([...outcome(reply), reply.body.data], `${method} ${path}`).toEqual([
        403,
        'api_token_scope_not_allowed',
        { required_scopes: ['chat:write'] },
      ]);
    }
  });
});
