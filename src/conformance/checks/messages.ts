import { expectStatus } from '../context.js';
import { synced, turnBody } from '../plain-turns.js';
import { expectThat, Skip, show } from '../verdict.js';
import type { Check } from './check.js';

const idOf = (data: unknown): unknown => (data as { id?: unknown } | undefined)?.id;

/** Section 4.2: the message listing. */
export const MESSAGE_CHECKS: Check[] = [
  {
    section: '4.2',
    title: "a chat's turns are listed in chronological order: a turn sent once another ended comes after it",
    quote: "the chat's turns in chronological order",
    async run(ctx) {
      const { chatId, answer: first } = await synced(ctx);
      const second = await ctx.wire.call('POST', `/api/v1/chats/${chatId}/messages`, {
        token: ctx.tokens.main,
        body: turnBody(ctx),
        key: ctx.newKey(),
      });
      if (second.status >= 500 && second.code === 'upstream_error') {
        throw new Skip('the second turn failed upstream (the model, not the contract); run again');
      }
      expectStatus(second, 200);
      const list = await ctx.wire.call('GET', `/api/v1/chats/${chatId}/messages?size=200`, {
        token: ctx.tokens.main,
        list: true,
      });
      expectStatus(list, 200);
      const ids = Array.isArray(list.data) ? list.data.map(idOf) : [];
      // The run knows the order itself: the second was sent after the first had answered, whatever the
      // timestamps' precision.
      const [a, b] = [ids.indexOf(idOf(first.data)), ids.indexOf(idOf(second.data))];
      expectThat(
        a >= 0 && b >= 0 && a < b,
        `turn ${show(idOf(first.data))} (sent first) listed before turn ${show(idOf(second.data))}`,
        () => `positions ${a} and ${b} of ${show(ids, 200)}`,
        list,
      );
    },
  },
];
