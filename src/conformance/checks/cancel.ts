import { ANSWERS, type AnswerEndpoint, CancelResultSchema } from '../../contract/interactions.js';
import { expectStatus } from '../context.js';
import { streamed } from '../plain-turns.js';
import { expectThat, show } from '../verdict.js';
import type { Answer } from '../wire.js';
import type { Check } from './check.js';

/** A body each answer endpoint accepts (4.5), for an interaction that does not exist. */
const ANSWER_BODIES: Record<AnswerEndpoint, (actionId: string) => Record<string, unknown>> = {
  'approve-tool': (action_id) => ({
    action_id,
    decisions: [{ tool_use_id: 'conformance', approved: false }],
  }),
  'respond-plan': (action_id) => ({ action_id, action: 'reject' }),
  'respond-elicitation': (action_id) => ({ action_id, action: 'decline' }),
  'cancel-auth': (action_id) => ({ action_id }),
};

/** Fails unless `answer` is 4.6's 200 `{ chat_id, cancelled }` for `chatId`. */
export function expectCancelAnswer(answer: Answer, chatId: string): void {
  expectStatus(answer, 200);
  const data = CancelResultSchema.safeParse(answer.data);
  expectThat(
    data.success && data.data.chat_id === chatId,
    `data { chat_id: "${chatId}", cancelled: boolean }`,
    () => show(answer.data),
    answer,
  );
}

/** Sections 4.6, 7.5 and 7.6: cancelling, and answers to interactions that do not exist. */
export const CANCEL_CHECKS: Check[] = [
  {
    section: '7.5',
    title: 'each answer endpoint answers an interaction that does not exist with 404 api_v1_action_not_found',
    quote: "interaction does not exist, expired, or is not the caller's",
    exercises: [
      'actions.approveTool 404 api_v1_action_not_found',
      'actions.respondPlan 404 api_v1_action_not_found',
      'actions.respondElicitation 404 api_v1_action_not_found',
      'actions.cancelAuth 404 api_v1_action_not_found',
    ],
    async run(ctx) {
      const { chatId } = await streamed(ctx);
      for (const { endpoint } of Object.values(ANSWERS)) {
        const answer = await ctx.wire.call('POST', `/api/v1/chats/${chatId}/actions/${endpoint}`, {
          token: ctx.tokens.main,
          body: ANSWER_BODIES[endpoint](`${ctx.prefix}-${crypto.randomUUID()}`),
        });
        expectStatus(answer, 404, 'api_v1_action_not_found');
      }
    },
  },
  {
    section: '4.6',
    title: 'cancelling a finished turn answers 200 { chat_id, cancelled }, again and again',
    quote: 'Idempotent: cancelling a finished turn still answers 200.',
    async run(ctx) {
      const { chatId } = await streamed(ctx);
      for (let time = 0; time < 2; time++) {
        const answer = await ctx.wire.call('POST', `/api/v1/chats/${chatId}/actions/cancel`, {
          token: ctx.tokens.main,
          body: {},
        });
        expectCancelAnswer(answer, chatId);
      }
    },
  },
  {
    section: '7.6',
    title: 'cancelling in a chat that does not exist is 404 api_v1_not_found and creates no chat',
    quote: 'chat does not exist or belongs to another credential',
    exercises: ['turns.cancel 404 api_v1_not_found'],
    async run(ctx) {
      const chatId = crypto.randomUUID();
      const answer = await ctx.wire.call('POST', `/api/v1/chats/${chatId}/actions/cancel`, {
        token: ctx.tokens.main,
        body: {},
      });
      expectStatus(answer, 404, 'api_v1_not_found');
      const read = await ctx.wire.call('GET', `/api/v1/chats/${chatId}`, { token: ctx.tokens.main });
      if (read.status === 200) ctx.chats.add(chatId);
      expectStatus(read, 404, 'api_v1_not_found');
    },
  },
];
