import { expect } from 'vitest';
import { apiError } from '../support/api-error.js';
import { type Case, expectRefused, runOnTargets } from './run-targets.js';

const cases: Case[] = [
  [
    '4.2 create returns an empty chat: permission_mode manual by default',
    async (t) => {
      const chat = await t.client().chats.create({ name: 'Planning' });
      expect(chat).toMatchObject({ name: 'Planning', permission_mode: 'manual' });
      expect(chat.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(await t.client().chats.messages(chat.id)).toMatchObject({ items: [], total: 0 });
    },
  ],
  [
    'reading: a new chat answers 201 and is not a favorite',
    async (t) => {
      const reply = await t.raw('/api/v1/chats', { method: 'POST', body: {} });
      expect([reply.status, reply.body.data.is_favorite]).toEqual([201, false]);
    },
  ],
  [
    '4.2 create keeps model_id and permission_mode auto',
    async (t) => {
      const chat = await t.client().chats.create({ model_id: 2, permission_mode: 'auto' });
      expect(chat).toMatchObject({ model_id: 2, permission_mode: 'auto' });
    },
  ],
  [
    '8 a chat name of 200 characters is accepted on creation, 201 is refused',
    async (t) => {
      expect((await t.client().chats.create({ name: 'n'.repeat(200) })).name).toHaveLength(200);
      const reply = await t.raw('/api/v1/chats', { method: 'POST', body: { name: 'n'.repeat(201) } });
      expectRefused(reply.status);
    },
  ],
  [
    'reading: a field past its limit is 422 api_v1_validation_error naming the field and the limit',
    async (t) => {
      const reply = await t.raw('/api/v1/chats', { method: 'POST', body: { name: 'n'.repeat(201) } });
      expect([reply.status, reply.body.message_code]).toEqual([422, 'api_v1_validation_error']);
      expect(reply.body.data).toEqual([expect.objectContaining({ field: 'name', limit: 200 })]);
    },
  ],
  [
    '4.2 get returns the chat; update renames it and sets the favorite flag',
    async (t) => {
      const chat = await t.client().chats.create({ name: 'a' });
      expect(await t.client().chats.get(chat.id)).toEqual(chat);
      const updated = await t.client().chats.update(chat.id, { name: 'b', is_favorite: true });
      expect(updated).toMatchObject({ id: chat.id, name: 'b', is_favorite: true });
    },
  ],
  [
    '2.3 delete is soft: { id, deleted: true }, then the chat is 404',
    async (t) => {
      const chat = await t.client().chats.create();
      expect(await t.client().chats.delete(chat.id)).toEqual({ id: chat.id, deleted: true });
      expect((await apiError(t.client().chats.get(chat.id))).code).toBe('api_v1_not_found');
      const ids: string[] = [];
      for await (const c of t.client().chats.list()) ids.push(c.id);
      expect(ids).not.toContain(chat.id);
    },
  ],
  [
    '4.2 the list is newest first and filters by is_favorite',
    async (t) => {
      const first = await t.client().chats.create({ name: 'first' });
      const second = await t.client().chats.create({ name: 'second' });
      await t.client().chats.update(first.id, { is_favorite: true });
      const page = await t.client().chats.list({ size: 200 });
      const ids = page.items.map((c) => c.id);
      expect(ids.indexOf(second.id)).toBeLessThan(ids.indexOf(first.id));
      const favorites = await t.client().chats.list({ is_favorite: true, size: 200 });
      expect(favorites.items.map((c) => c.id)).toContain(first.id);
      expect(favorites.items.every((c) => c.is_favorite)).toBe(true);
      const others = await t.client().chats.list({ is_favorite: false, size: 200 });
      expect(others.items.map((c) => c.id)).not.toContain(first.id);
    },
  ],
  [
    '1 chats are per credential: another credential of the same user neither lists nor reads them',
    async (t) => {
      const chat = await t.client().chats.create({ name: 'mine' });
      const ids: string[] = [];
      for await (const c of t.client('fullSameUser').chats.list()) ids.push(c.id);
      expect(ids).not.toContain(chat.id);
      for (const attempt of [
        () => t.client('fullSameUser').chats.get(chat.id),
        () => t.client('fullSameUser').chats.update(chat.id, { name: 'x' }),
        () => t.client('fullSameUser').chats.delete(chat.id),
        () => t.client('fullSameUser').chats.messages(chat.id),
      ]) {
        const error = await apiError(attempt());
        expect([error.status, error.code]).toEqual([404, 'api_v1_not_found']);
      }
      expect((await t.client().chats.get(chat.id)).name).toBe('mine');
    },
  ],
  [
    '5 chat endpoints need chat:read and chat:write',
    async (t) => {
      const read = await apiError(t.client('skillsRead').chats.list());
      expect([read.status, read.code]).toEqual([403, 'api_token_scope_not_allowed']);
      if (!read.is('api_token_scope_not_allowed')) throw read;
      expect(read.data.required_scopes).toEqual(['chat:read']);
      const write = await apiError(t.client('skillsRead').chats.create());
      if (!write.is('api_token_scope_not_allowed')) throw write;
      expect(write.data.required_scopes).toEqual(['chat:write']);
    },
  ],
  [
    '2.5 the catalog lists only COMPLETION models and both permission modes',
    async (t) => {
      const catalog = await t.client().chats.catalog();
      expect(catalog.models.map((m) => m.id)).toEqual([1, 2]);
      expect(catalog.models.every((m) => m.type === 'COMPLETION')).toBe(true);
      expect(catalog.permission_modes).toEqual(['manual', 'auto']);
      expect(catalog.libraries?.map((l) => l.id)).toEqual([1, 2]);
      expect(catalog.connectors?.map((c) => c.name)).toEqual(['github', 'drive']);
      expect(Array.isArray(catalog.skills)).toBe(true);
    },
  ],
  [
    'conventions: company 2 has no libraries and no connectors: its catalog blocks are empty',
    async (t) => {
      const catalog = await t.client('otherCompany').chats.catalog();
      expect([catalog.libraries, catalog.connectors]).toEqual([[], []]);
    },
  ],
  [
    '2.5 a block whose scope the credential lacks is absent, not an empty list',
    async (t) => {
      const reply = await t.raw('/api/v1/chat/catalog', { token: 'chat-only' });
      expect(reply.status).toBe(200);
      expect(Object.keys(reply.body.data).sort()).toEqual(['models', 'permission_modes']);
    },
  ],
];

runOnTargets('chats', cases);
