import { isTerminalEvent as isTerminal } from '../../contract/events.js';
import { type Context, expectStatus } from '../context.js';
import { sendPlainTurn, turnBody } from '../plain-turns.js';
import { expectThat, Skip, show } from '../verdict.js';
import type { Answer } from '../wire.js';
import { expectCancelAnswer } from './cancel.js';
import type { Check } from './check.js';
import { byId, findListed } from './lists.js';

/** What a request sent during the turn came to: its answer, or what it threw (kept until awaited). */
type Pending = Promise<{ answer: Answer } | { error: unknown }>;

/** The stream path of a chat's turns (4.4). */
const streamPath = (chatId: string) => `/api/v1/chats/${chatId}/messages/stream`;

const settle = (sent: Promise<Answer>): Pending =>
  sent.then(
    (answer) => ({ answer }),
    (error: unknown) => ({ error }),
  );

async function outcome(pending: Pending | undefined): Promise<Answer> {
  // A stream without message.start is section 6's failure: nothing here to act on.
  if (pending === undefined) throw new Skip('the stream sent no message.start to act on');
  const settled = await pending;
  if ('error' in settled) throw settled.error;
  return settled.answer;
}

/**
 * Streams a plain turn into a new chat of the run's and calls `during` once, when `message.start` arrives:
 * while the turn runs, as a real model's turn does for a moment.
 */
async function whileRunning(ctx: Context, during: (chatId: string) => Promise<Answer>) {
  let pending: Pending | undefined;
  const {
    chatId,
    key,
    body,
    answer: stream,
  } = await sendPlainTurn(ctx, (chatId, key, body) =>
    ctx.wire.stream(streamPath(chatId), { token: ctx.tokens.main, body, key }, (event) => {
      if (event.event === 'message.start' && !pending) pending = settle(during(chatId));
    }),
  );
  expectStatus(stream, 200);
  return { chatId, key, body, path: streamPath(chatId), stream, answer: await outcome(pending) };
}

/** Sections 4.6, 3.2 and 3.4: what a plain turn shows while it runs. */
export const RUNNING_CHECKS: Check[] = [
  {
    section: '4.6',
    title:
      'a cancel sent once message.start arrives is answered 200; a turn it cut ends message.cancelled, is saved cancelled and replays cancelled (3.2)',
    quote: 'A cancelled turn ends with `message.cancelled`.',
    async run(ctx) {
      const { chatId, key, body, path, stream, answer } = await whileRunning(ctx, (chatId) =>
        ctx.wire.call('POST', `/api/v1/chats/${chatId}/actions/cancel`, { token: ctx.tokens.main, body: {} }),
      );
      expectCancelAnswer(answer, chatId);
      // The first terminal event: what comes after it is rule 1's failure (6).
      const terminal = stream.events.find((event) => isTerminal(event.event));
      const end = terminal?.event;
      expectThat(
        end === 'message.completed' || end === 'message.cancelled',
        'message.completed, or message.cancelled: "A cancelled turn ends with message.cancelled"',
        () => show(end),
        stream,
      );
      if (end === 'message.completed')
        throw new Skip('the turn completed before the cancel reached it (a quick model)');
      const id = (terminal?.data as { id?: unknown } | undefined)?.id;
      const listed = await findListed(ctx, `/api/v1/chats/${chatId}/messages`, byId(id));
      expectThat(
        (listed.item as { status?: unknown } | undefined)?.status === 'cancelled',
        `turn ${show(id)} listed with status "cancelled"`,
        () => show(listed.item),
        listed.answer,
      );
      const replay = await ctx.wire.stream(path, { token: ctx.tokens.main, body, key });
      expectThat(
        replay.events.find((event) => isTerminal(event.event))?.event === 'message.cancelled',
        'the replay of the key ending message.cancelled ("replay of the key returns status: cancelled")',
        () => show(replay.events.map((event) => event.event)),
        replay,
      );
    },
  },
  {
    section: '3.4',
    title:
      'a second turn sent to a chat while its turn runs, synchronous or streamed, is 409 api_v1_chat_busy',
    quote: 'a second turn while one runs (from the API or from the application) gives 409 `api_v1_chat_busy`',
    exercises: ['turns.send 409 api_v1_chat_busy', 'turns.stream 409 api_v1_chat_busy'],
    async run(ctx) {
      let second: Answer | undefined;
      const send = (chatId: string, streamed: boolean) => {
        const init = { token: ctx.tokens.main, body: turnBody(ctx), key: ctx.newKey() };
        return streamed
          ? ctx.wire.stream(streamPath(chatId), init)
          : ctx.wire.call('POST', `/api/v1/chats/${chatId}/messages`, init);
      };
      // Both at once, while the turn runs: the synchronous send, and the streamed one (7.4).
      const { answer } = await whileRunning(ctx, async (chatId) => {
        const [first, streamed] = await Promise.all([send(chatId, false), send(chatId, true)]);
        second = streamed;
        return first;
      });
      if (answer.status === 200)
        throw new Skip('the first turn ended before the second send arrived (a quick model)');
      expectStatus(answer, 409, 'api_v1_chat_busy');
      if (second?.status === 200)
        throw new Skip('the first turn ended before the streamed send arrived (a quick model)');
      if (second) expectStatus(second, 409, 'api_v1_chat_busy');
    },
  },
];
