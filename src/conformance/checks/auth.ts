import { type Context, expectStatus } from '../context.js';
import { TURN_CONTENT } from '../plain-turns.js';
import { expectThat, Skip, show, Warning } from '../verdict.js';
import type { Answer } from '../wire.js';
import { createChat } from './chats.js';
import type { Check } from './check.js';
import { byId, findListed } from './lists.js';
import { createSkill } from './skills.js';

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

/**
 * Sends a turn with `attachments` as `token` (a credential without `scope`) to a new chat, synchronously or
 * streamed; fails unless it is 403 api_token_scope_not_allowed with `scope` in `data.required_scopes`.
 */
async function expectScopeRefusal(
  ctx: Context,
  token: string,
  attachments: Record<string, number[]>,
  scope: string,
  streamed: boolean,
): Promise<void> {
  const chatId = ctx.newChatId();
  const path = `/api/v1/chats/${chatId}/messages${streamed ? '/stream' : ''}`;
  const init = {
    token,
    body: { content: TURN_CONTENT, permission_mode: 'auto', attachments },
    key: ctx.newKey(),
  };
  const answer = await ctx.sendTo(
    chatId,
    () => (streamed ? ctx.wire.stream(path, init) : ctx.wire.call('POST', path, init)),
    token,
  );
  expectStatus(answer, 403, 'api_token_scope_not_allowed');
  const required = (answer.data as { required_scopes?: unknown } | undefined)?.required_scopes;
  expectThat(
    Array.isArray(required) && required.includes(scope),
    // One wording for every scope: a service that never lists them is one defect, one FAIL.
    'data.required_scopes listing the missing scope',
    () => `data ${show(answer.data)}`,
    answer,
  );
}

/** The id of the first item of a catalog block (2.5) the main credential sees, if any. */
function firstOf(catalog: Answer, block: 'libraries' | 'connectors'): number | undefined {
  const items = (catalog.data as Record<string, unknown> | undefined)?.[block];
  if (!Array.isArray(items)) return undefined;
  const id = items.map((item: { id?: unknown } | null) => item?.id).find(Number.isSafeInteger);
  return id as number | undefined;
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
      'a skill attachment without skills:read is 403 api_token_scope_not_allowed with data.required_scopes, on both sends (7.3)',
    quote:
      'lacking it gives 403 `api_token_scope_not_allowed` with `data.required_scopes` listing the missing scopes.',
    exercises: ['turns.send 403 api_token_scope_not_allowed', 'turns.stream 403 api_token_scope_not_allowed'],
    async run(ctx) {
      const token = ctx.token('other');
      // A skill that exists: only the scope is missing, whatever the service checks first.
      const { skill } = await createSkill(ctx, 'attached');
      for (const streamed of [false, true]) {
        await expectScopeRefusal(ctx, token, { skill_ids: [skill.id] }, 'skills:read', streamed);
      }
    },
  },
  {
    section: '5',
    title:
      'a library attachment without libraries:read, a connector one without connectors:use, is 403 api_token_scope_not_allowed naming that scope (7.3)',
    quote: 'Attaching a resource to a turn additionally requires the scope in the attachments table',
    async run(ctx) {
      const token = ctx.token('other');
      // Libraries and connectors are not created through the API: the catalog names those that exist.
      const catalog = await ctx.wire.call('GET', '/api/v1/chat/catalog', { token: ctx.tokens.main });
      expectStatus(catalog, 200);
      const library = firstOf(catalog, 'libraries');
      const connector = firstOf(catalog, 'connectors');
      if (library === undefined && connector === undefined) {
        throw new Skip("needs a library or a connector in the main credential's catalog (2.5) to attach");
      }
      if (library !== undefined) {
        await expectScopeRefusal(ctx, token, { workspace_ids: [library] }, 'libraries:read', false);
      }
      if (connector !== undefined) {
        await expectScopeRefusal(ctx, token, { mcp_server_ids: [connector] }, 'connectors:use', false);
      }
    },
  },
  {
    section: '5',
    title: "another credential's chat is 404 api_v1_not_found, never 403, and absent from its listing",
    quote:
      "Resources outside the credential's scope are answered as not found (404), never 403, so existence is not revealed.",
    exercises: ['turns.send 404 api_v1_not_found', 'turns.stream 404 api_v1_not_found'],
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
      // A turn sent to it, either way: not found, and no second chat made under the same id.
      const turn = { token: other, body: { content: TURN_CONTENT, permission_mode: 'auto' } };
      const path = `/api/v1/chats/${id}/messages`;
      expectStatus(
        await ctx.wire.call('POST', path, { ...turn, key: ctx.newKey() }),
        404,
        'api_v1_not_found',
      );
      expectStatus(
        await ctx.wire.stream(`${path}/stream`, { ...turn, key: ctx.newKey() }),
        404,
        'api_v1_not_found',
      );
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
