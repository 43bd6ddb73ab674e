import { CancelResultSchema } from '../../contract/interactions.js';
import { expectStatus } from '../context.js';
import { expectThat, show } from '../verdict.js';
import type { Check } from './check.js';

/** Section 4.6 and 7.6: cancelling. */
export const CANCEL_CHECKS: Check[] = [
  {
    section: '4.6',
    title: 'cancelling a finished turn answers 200 { chat_id, cancelled }, again and again',
    async run(ctx) {
      const { chatId } = await ctx.streamed();
      for (let time = 0; time < 2; time++) {
        const answer = await ctx.wire.call('POST', `/api/v1/chats/${chatId}/actions/cancel`, {
          token: ctx.tokens.main,
          body: {},
        });
        expectStatus(answer, 200);
        const data = CancelResultSchema.safeParse(answer.data);
        expectThat(
          data.success && data.data.chat_id === chatId,
          `data { chat_id: "${chatId}", cancelled: boolean }`,
          () => show(answer.data),
          answer,
        );
      }
    },
  },
  {
    section: '7.6',
    title: 'cancelling in a chat that does not exist is 404 api_v1_not_found and creates no chat',
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
