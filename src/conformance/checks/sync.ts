import { TurnSchema } from '../../contract/turn.js';
import { expectStatus, TURN_CONTENT } from '../context.js';
import { expectThat, show } from '../verdict.js';
import type { Check } from './check.js';

/** Section 4.3: the synchronous send. */
export const SYNC_CHECKS: Check[] = [
  {
    section: '4.3',
    title: 'a synchronous turn in auto mode answers 200 with the completed turn',
    async run(ctx) {
      const { answer, chatId } = await ctx.synced();
      const turn = TurnSchema.safeParse(answer.data);
      expectThat(
        turn.success &&
          turn.data.chat_id === chatId &&
          turn.data.role === 'assistant' &&
          turn.data.status === 'completed',
        `a completed assistant turn of chat ${chatId}`,
        () => show(answer.data),
        answer,
      );
    },
  },
  {
    section: '7.3',
    title: 'a synchronous send without Idempotency-Key is 400 api_v1_idempotency_key_required',
    async run(ctx) {
      const chatId = ctx.newChatId();
      const answer = await ctx.sendTo(chatId, () =>
        ctx.wire.call('POST', `/api/v1/chats/${chatId}/messages`, {
          token: ctx.tokens.main,
          body: { content: TURN_CONTENT, permission_mode: 'auto' },
        }),
      );
      expectStatus(answer, 400, 'api_v1_idempotency_key_required');
    },
  },
  {
    section: '7.3',
    title: 'a synchronous send in manual mode is 409 api_v1_sync_requires_auto',
    async run(ctx) {
      const chatId = ctx.newChatId();
      const answer = await ctx.sendTo(chatId, () =>
        ctx.wire.call('POST', `/api/v1/chats/${chatId}/messages`, {
          token: ctx.tokens.main,
          body: { content: TURN_CONTENT, permission_mode: 'manual' },
          key: ctx.newKey(),
        }),
      );
      expectStatus(answer, 409, 'api_v1_sync_requires_auto');
    },
  },
];
