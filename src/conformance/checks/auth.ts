import { expectStatus } from '../context.js';
import { expectThat, show } from '../verdict.js';
import { createChat } from './chats.js';
import type { Check } from './check.js';

/** Section 5: credentials and scopes. */
export const AUTH_CHECKS: Check[] = [
  {
    section: '5',
    title: 'a request without a credential, or with an unknown one, is answered 401',
    async run(ctx) {
      expectStatus(await ctx.wire.call('GET', '/api/v1/chats', { token: undefined }), 401);
      const unknown = `conformance-unknown-${crypto.randomUUID()}`;
      expectStatus(await ctx.wire.call('GET', '/api/v1/chats', { token: unknown }), 401);
    },
  },
  {
    section: '5',
    title: "an endpoint outside the credential's scopes is 403 api_token_scope_not_allowed naming the scope",
    async run(ctx) {
      const answer = await ctx.wire.call('GET', '/api/v1/skills', { token: ctx.token('limited') });
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
    title: "another credential's chat is answered 404 api_v1_not_found, never 403",
    async run(ctx) {
      const other = ctx.token('other');
      const { id } = await createChat(ctx, 'private');
      for (const [method, path, body] of [
        ['GET', `/api/v1/chats/${id}`, undefined],
        ['PATCH', `/api/v1/chats/${id}`, { name: 'not yours' }],
        ['GET', `/api/v1/chats/${id}/messages`, undefined],
        ['DELETE', `/api/v1/chats/${id}`, undefined],
      ] as const) {
        expectStatus(await ctx.wire.call(method, path, { token: other, body }), 404, 'api_v1_not_found');
      }
      expectStatus(await ctx.wire.call('GET', `/api/v1/chats/${id}`, { token: ctx.tokens.main }), 200);
    },
  },
];
