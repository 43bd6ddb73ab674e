import { type Context, expectStatus } from '../context.js';
import { streamed, synced } from '../plain-turns.js';
import { expectThat, show } from '../verdict.js';
import type { Check } from './check.js';

/** How many turns a chat's message listing holds (counted, not read from `meta`: that is 2.1's check). */
async function turnCount(ctx: Context, chatId: string): Promise<number> {
  const list = await ctx.wire.call('GET', `/api/v1/chats/${chatId}/messages?size=200`, {
    token: ctx.tokens.main,
    list: true,
  });
  expectStatus(list, 200);
  return Array.isArray(list.data) ? list.data.length : -1;
}

/** Sections 4.3, 4.4, 7.3 and 7.4: turns keyed by `Idempotency-Key`. */
export const IDEMPOTENCY_CHECKS: Check[] = [
  {
    section: '4.3',
    title: 'a synchronous turn repeated with its key returns the same turn, and the listing shows no re-run',
    quote: 'Retrying with the same key returns the same result without re-running the turn.',
    async run(ctx) {
      const { answer, chatId, key, body } = await synced(ctx);
      const before = await turnCount(ctx, chatId);
      const again = await ctx.wire.call('POST', `/api/v1/chats/${chatId}/messages`, {
        token: ctx.tokens.main,
        body,
        key,
      });
      expectStatus(again, 200);
      type Turn = { id?: unknown; content?: unknown } | undefined;
      const [a, b] = [answer.data as Turn, again.data as Turn];
      const first = { id: a?.id, content: a?.content };
      const replay = { id: b?.id, content: b?.content };
      expectThat(show(first) === show(replay), `the same turn ${show(first)}`, () => show(replay), again);
      const after = await turnCount(ctx, chatId);
      expectThat(before === after, `${before} turns listed after the replay`, () => `${after}`);
    },
  },
  {
    section: '4.4',
    title: 'a streamed turn repeated with its key re-delivers the same outcome without re-running',
    quote: 'Sending the same key again re-delivers that outcome without re-running anything.',
    async run(ctx) {
      const { answer, chatId, key, body } = await streamed(ctx);
      const before = await turnCount(ctx, chatId);
      const again = await ctx.wire.stream(`/api/v1/chats/${chatId}/messages/stream`, {
        token: ctx.tokens.main,
        body,
        key,
      });
      expectThat(again.status === 200, 'status 200', () => `${again.status} ${show(again.body)}`);
      // 4.4 says only that the key "re-delivers that outcome": the same turn and the same terminal event
      // with the same answer. Whether the deltas are sent again is the service's choice.
      const outcome = (events: typeof answer.events) => {
        const start = events.find((event) => event.event === 'message.start')?.data as {
          message_id?: unknown;
        };
        const end = events.at(-1);
        const content = (end?.data as { content?: unknown } | undefined)?.content;
        return { message_id: start?.message_id, terminal: end?.event, content };
      };
      const [first, replay] = [outcome(answer.events), outcome(again.events)];
      expectThat(show(first) === show(replay), `the same outcome ${show(first)}`, () => show(replay), again);
      const after = await turnCount(ctx, chatId);
      expectThat(before === after, `${before} turns listed after the replay`, () => `${after}`);
    },
  },
  {
    section: '7.3',
    title: 'a synchronous turn key reused with a different body is 409 api_v1_idempotency_conflict',
    quote: 'same key used with a different body',
    exercises: ['turns.send 409 api_v1_idempotency_conflict'],
    async run(ctx) {
      const { chatId, key, body } = await synced(ctx);
      const answer = await ctx.wire.call('POST', `/api/v1/chats/${chatId}/messages`, {
        token: ctx.tokens.main,
        body: { ...body, content: `${body.content} (changed)` },
        key,
      });
      expectStatus(answer, 409, 'api_v1_idempotency_conflict');
    },
  },
  {
    section: '7.4',
    title: 'a streamed turn key reused with a different body is 409 api_v1_idempotency_conflict',
    quote: 'key used with a different body',
    exercises: ['turns.stream 409 api_v1_idempotency_conflict'],
    async run(ctx) {
      const { chatId, key, body } = await streamed(ctx);
      const answer = await ctx.wire.stream(`/api/v1/chats/${chatId}/messages/stream`, {
        token: ctx.tokens.main,
        body: { ...body, content: `${body.content} (changed)` },
        key,
      });
      expectStatus(answer, 409, 'api_v1_idempotency_conflict');
    },
  },
];
