import { ChatDeletedSchema, ChatSchema } from '../../contract/chat.js';
import { type Context, expectStatus } from '../context.js';
import { expectThat, show } from '../verdict.js';
import type { Answer } from '../wire.js';
import type { Check } from './check.js';
import { expectUtc } from './fields.js';
import { byId, findListed } from './lists.js';

/** `data` parsed as a chat, or a failure naming what did not match. */
export function chatOf(answer: Answer) {
  const parsed = ChatSchema.safeParse(answer.data);
  expectThat(parsed.success, 'data matching the chat of 2.3', () => show(answer.data), answer);
  return parsed.data;
}

/** Creates a chat named with the run's prefix; fails unless the answer is that new chat (2.3). */
export async function createChat(ctx: Context, what: string) {
  const name = ctx.name(what);
  const answer = await ctx.wire.call('POST', '/api/v1/chats', { token: ctx.tokens.main, body: { name } });
  const id = await ctx.created('chat', answer, name);
  return { ...chatOf(answer), id, answer };
}

const idsOf = (answer: Answer): unknown[] =>
  Array.isArray(answer.data) ? answer.data.map((item: { id?: unknown } | null) => item?.id) : [];

/** Sections 4.2, 7.1 and 8: the chats resource, not-found answers and paging. */
export const CHAT_CHECKS: Check[] = [
  {
    section: '4.2',
    title:
      'chats are created (timestamps in UTC), read, renamed, marked favorite and filtered by is_favorite',
    quote: 'rename / set favorite; returns the chat',
    async run(ctx) {
      const older = await createChat(ctx, 'older');
      expectUtc(older.answer, older.answer.data as Record<string, unknown>, ['created_at', 'updated_at']);
      const newer = await createChat(ctx, 'newer');
      const read = await ctx.wire.call('GET', `/api/v1/chats/${older.id}`, { token: ctx.tokens.main });
      expectStatus(read, 200);
      expectThat(chatOf(read).id === older.id, `chat ${older.id}`, () => show(read.data), read);
      const patched = await ctx.wire.call('PATCH', `/api/v1/chats/${newer.id}`, {
        token: ctx.tokens.main,
        body: { name: ctx.name('favorite'), is_favorite: true },
      });
      expectStatus(patched, 200);
      const favorite = chatOf(patched);
      expectThat(
        favorite.name === ctx.name('favorite') && favorite.is_favorite,
        `name ${show(ctx.name('favorite'))}, is_favorite true`,
        () => show({ name: favorite.name, is_favorite: favorite.is_favorite }),
        patched,
      );
      const favorites = await findListed(ctx, '/api/v1/chats?is_favorite=true', byId(older.id));
      expectThat(
        favorites.item === undefined,
        'is_favorite=true not listing a chat that is not one',
        () => show(favorites.item),
        favorites.answer,
      );
      const listed = await findListed(ctx, '/api/v1/chats?is_favorite=true', byId(newer.id));
      expectThat(
        listed.item !== undefined,
        `is_favorite=true listing chat ${newer.id}`,
        () => 'not listed',
        listed.answer,
      );
    },
  },
  {
    section: '4.2',
    title: 'chats are listed newest first (chats stamped with the same time may come in either order)',
    quote: "the credential's chats, newest first",
    async run(ctx) {
      const older = await createChat(ctx, 'first');
      const newer = await createChat(ctx, 'second');
      const list = await ctx.wire.call('GET', '/api/v1/chats?size=200', {
        token: ctx.tokens.main,
        list: true,
      });
      expectStatus(list, 200);
      const ids = idsOf(list);
      const [a, b] = [ids.indexOf(newer.id), ids.indexOf(older.id)];
      // The newest are on the first page. Two chats the service stamped alike (one that keeps timestamps to
      // the second, say) tie, and may come in either order.
      const tie = Date.parse(newer.created_at) <= Date.parse(older.created_at);
      expectThat(
        a >= 0 && b >= 0 && (a < b || tie),
        'the chat made second listed before the one made first, both on the first page',
        () => `positions ${a} and ${b} of ${show(ids, 200)}`,
        list,
      );
    },
  },
  {
    section: '4.2',
    title: 'delete is soft: { id, deleted: true }, then 404 and gone from the list',
    quote: 'soft delete; `data` is `{ id, deleted }` with `deleted` boolean true',
    async run(ctx) {
      const chat = await createChat(ctx, 'deleted');
      const deleted = await ctx.wire.call('DELETE', `/api/v1/chats/${chat.id}`, { token: ctx.tokens.main });
      expectStatus(deleted, 200);
      const data = ChatDeletedSchema.safeParse(deleted.data);
      expectThat(
        data.success && data.data.id === chat.id,
        `data { id: "${chat.id}", deleted: true }`,
        () => show(deleted.data),
        deleted,
      );
      ctx.chats.delete(chat.id);
      expectStatus(
        await ctx.wire.call('GET', `/api/v1/chats/${chat.id}`, { token: ctx.tokens.main }),
        404,
        'api_v1_not_found',
      );
      const listed = await findListed(ctx, '/api/v1/chats', byId(chat.id));
      expectThat(listed.item === undefined, `no chat ${chat.id} listed`, () => 'listed', listed.answer);
    },
  },
  {
    section: '7.1',
    title:
      'a skill or chat that does not exist is 404 api_v1_not_found: read, updated, toggled, listed or deleted',
    quote:
      "skill or chat does not exist, or is outside the credential's scope / belongs to another credential; both cases answer the same",
    exercises: [
      'skills.get 404 api_v1_not_found',
      'skills.update 404 api_v1_not_found',
      'skills.toggle 404 api_v1_not_found',
      'skills.delete 404 api_v1_not_found',
      'chats.get 404 api_v1_not_found',
      'chats.update 404 api_v1_not_found',
      'chats.delete 404 api_v1_not_found',
      'chats.messages 404 api_v1_not_found',
    ],
    async run(ctx) {
      const token = ctx.tokens.main;
      const skill = '/api/v1/skills/2147483000';
      // Changed only once read as absent: the run never touches a skill it did not create.
      expectStatus(await ctx.wire.call('GET', skill, { token }), 404, 'api_v1_not_found');
      for (const [method, path, body] of [
        ['PATCH', skill, { name: ctx.name('absent') }],
        ['PATCH', `${skill}/toggle`, undefined],
        ['DELETE', skill, undefined],
      ] as const) {
        expectStatus(await ctx.wire.call(method, path, { token, body }), 404, 'api_v1_not_found');
      }
      const chat = `/api/v1/chats/${crypto.randomUUID()}`;
      for (const [method, path, body] of [
        ['GET', chat, undefined],
        ['GET', `${chat}/messages`, undefined],
        ['PATCH', chat, { name: ctx.name('absent') }],
        ['DELETE', chat, undefined],
      ] as const) {
        expectStatus(await ctx.wire.call(method, path, { token, body }), 404, 'api_v1_not_found');
      }
    },
  },
  {
    section: '8',
    title:
      'lists page from 1 with size 50 by default, up to 200; pages do not overlap; out-of-range sizes are refused or capped',
    quote: 'default 50, maximum 200',
    async run(ctx) {
      const token = ctx.tokens.main;
      await createChat(ctx, 'page a');
      await createChat(ctx, 'page b');
      const plain = await ctx.wire.call('GET', '/api/v1/chats', { token, list: true });
      expectStatus(plain, 200);
      const meta = (plain.body as { meta?: { page?: unknown; size?: unknown } } | undefined)?.meta;
      expectThat(
        meta?.page === 1 && meta.size === 50,
        'meta.page 1 and meta.size 50 by default',
        () => show(meta),
        plain,
      );
      expectStatus(await ctx.wire.call('GET', '/api/v1/chats?size=200', { token, list: true }), 200);
      const first = await ctx.wire.call('GET', '/api/v1/chats?page=1&size=1', { token, list: true });
      const second = await ctx.wire.call('GET', '/api/v1/chats?page=2&size=1', { token, list: true });
      expectStatus(first, 200);
      expectStatus(second, 200);
      const [a, b] = [idsOf(first), idsOf(second)];
      expectThat(
        a.length === 1 && b.length === 1 && a[0] !== b[0],
        'one different chat on each of pages 1 and 2 of size 1',
        () => `${show(a)} then ${show(b)}`,
        second,
      );
      for (const query of ['size=201', 'size=0', 'page=0']) {
        const answer = await ctx.wire.call('GET', `/api/v1/chats?${query}`, { token, list: true });
        const got = (answer.body as { meta?: { page?: number; size?: number } } | undefined)?.meta;
        const capped =
          answer.status === 200 &&
          (got?.size ?? 0) >= 1 &&
          (got?.size ?? 0) <= 200 &&
          (got?.page ?? 0) >= 1 &&
          idsOf(answer).length <= 200;
        expectThat(
          (answer.status >= 400 && answer.status < 500) || capped,
          `${query}: a 4xx, or a page within 1..200`,
          () => `${answer.status} meta ${show(got)}`,
          answer,
        );
      }
    },
  },
];
