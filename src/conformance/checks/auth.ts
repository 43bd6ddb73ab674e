import { expectStatus } from '../context.js';
import { TURN_CONTENT } from '../plain-turns.js';
import { expectThat, show, Warning } from '../verdict.js';
import type { Answer } from '../wire.js';
import { createChat } from './chats.js';
import type { Check } from './check.js';
import { byId, findListed } from './lists.js';

/** Fails on a success (4: every endpoint requires a credential); warns unless `status` (practice, not spec). */
function refused(answer: Answer, status: number, code?: string): void {
  expectThat(
    answer.status >= 400 && answer.status <= 499,
    'a refusal (4xx): "All endpoints require a bearer credential" (4), with its scope (5)',
    () => `${answer.status} ${answer.code ?? show(answer.body, 200)}`,
    answer,
  );
  if (answer.status !== status || (code !== undefined && answer.code !== code)) {
    throw new Warning(
      `${status}${code ? ` ${code}` : ''} (near-universal practice; section 5 names no status here)`,
      `${answer.status} ${answer.code ?? show(answer.body, 200)}`,
      answer,
    );
  }
}

/** Section 5: credentials and scopes. */
export const AUTH_CHECKS: Check[] = [
  {
    section: '5',
    title: 'a request without a credential, or with an unknown one, is refused (401 expected by practice)',
    quote: 'Every request carries the header `Authorization: Bearer <ACCESS_TOKEN>`.',
    async run(ctx) {
      refused(await ctx.wire.call('GET', '/api/v1/chats', { token: undefined }), 401);
      const unknown = `${ctx.prefix}-unknown-${crypto.randomUUID()}`;
      refused(await ctx.wire.call('GET', '/api/v1/chats', { token: unknown }), 401);
    },
  },
  {
    section: '5',
    title:
      "an endpoint outside the credential's scopes is refused (403 api_token_scope_not_allowed by practice)",
    quote: 'Each endpoint lists its required scope (section 4).',
    async run(ctx) {
      const answer = await ctx.wire.call('GET', '/api/v1/skills', { token: ctx.token('limited') });
      refused(answer, 403, 'api_token_scope_not_allowed');
    },
  },
  {
    section: '5',
    title:
      'an attachment without its read scope is 403 api_token_scope_not_allowed with data.required_scopes (7.3)',
    quote:
      'lacking it gives 403 `api_token_scope_not_allowed` with `data.required_scopes` listing the missing scopes.',
    async run(ctx) {
      const token = ctx.token('other');
      const chatId = ctx.newChatId();
      const answer = await ctx.sendTo(chatId, () =>
        ctx.wire.call('POST', `/api/v1/chats/${chatId}/messages`, {
          token,
          body: { content: TURN_CONTENT, permission_mode: 'auto', attachments: { skill_ids: [1] } },
          key: ctx.newKey(),
        }),
      );
      expectStatus(answer, 403, 'api_token_scope_not_allowed');
      const required = (answer.data as { required_scopes?: unknown } | undefined)?.required_scopes;
      expectThat(
        Array.isArray(required) && required.includes('skills:read'),
        'data.required_scopes listing "skills:read"',
        () => `data ${show(answer.data)}`,
        answer,
      );
    },
  },
  {
    section: '5',
    title: "another credential's chat is 404 api_v1_not_found, never 403, and absent from its listing",
    quote:
      "Resources outside the credential's scope are answered as not found (404), never 403, so existence is not revealed.",
    async run(ctx) {
      const other = ctx.token('other');
      const { id } = await createChat(ctx, 'private');
      for (const [method, path, body] of [
        ['GET', `/api/v1/chats/${id}`, undefined],
        ['PATCH', `/api/v1/chats/${id}`, { name: ctx.name('not yours') }],
        ['GET', `/api/v1/chats/${id}/messages`, undefined],
        ['POST', `/api/v1/chats/${id}/actions/cancel`, {}],
        ['DELETE', `/api/v1/chats/${id}`, undefined],
      ] as const) {
        expectStatus(await ctx.wire.call(method, path, { token: other, body }), 404, 'api_v1_not_found');
      }
      const listed = await findListed(ctx, '/api/v1/chats', byId(id), other);
      expectThat(
        listed.item === undefined,
        `no chat ${id} in the other credential's listing (1)`,
        () => 'listed',
        listed.answer,
      );
      expectStatus(await ctx.wire.call('GET', `/api/v1/chats/${id}`, { token: ctx.tokens.main }), 200);
    },
  },
];
