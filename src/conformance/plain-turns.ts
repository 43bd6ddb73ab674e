import { type Context, expectStatus } from './context.js';
import { Failure, Skip, show } from './verdict.js';
import type { Answer, StreamAnswer } from './wire.js';

/** The content of every turn the run sends: plain text, no directive a scripted model would act on. */
export const TURN_CONTENT = 'Conformance check: please answer in one short sentence.';

/** The body of a plain turn: text, auto mode, metadata to be echoed (4.3). */
export interface TurnBody {
  /** `TURN_CONTENT`. */
  content: string;
  /** Always `auto`: nothing to answer. */
  permission_mode: 'auto';
  /** The run's prefix, echoed verbatim in the turn. */
  metadata: { run: string; nested: { list: number[]; flag: boolean } };
}

/** A plain turn the run sent: to a new chat (created by the send, 3.4), under a new key. */
export interface PlainTurn<A extends Answer> {
  /** The chat it was sent to. */
  chatId: string;
  /** Its `Idempotency-Key`. */
  key: string;
  /** The body sent. */
  body: TurnBody;
  /** The answer (a stream's with its events). */
  answer: A;
}

/** A streamed turn the run sent, as it came. */
export type StreamedTurn = PlainTurn<StreamAnswer>;

/** A synchronous turn the run sent. */
export type SyncTurn = PlainTurn<Answer>;

/** The `message.error` codes, and sync statuses, of a turn that failed for reasons of the model, not the contract. */
const TRANSIENT_CODES = new Set(['upstream_error', 'turn_timeout']);

/** The body of a plain turn of this run. */
export function turnBody(ctx: Context): TurnBody {
  return {
    content: TURN_CONTENT,
    permission_mode: 'auto',
    metadata: { run: ctx.prefix, nested: { list: [1, 2], flag: true } },
  };
}

/** Sends a plain turn with `send` to a new chat under a new key, recording the chat as `Context.sendTo` says. */
export async function sendPlainTurn<A extends Answer>(
  ctx: Context,
  send: (chatId: string, key: string, body: TurnBody) => Promise<A>,
): Promise<PlainTurn<A>> {
  const chatId = ctx.newChatId();
  const key = ctx.newKey();
  const body = turnBody(ctx);
  const answer = await ctx.sendTo(chatId, () => send(chatId, key, body));
  return { chatId, key, body, answer };
}

/**
 * Sends a plain turn with `send`, once more on a new chat and key when the model failed (a transient
 * `upstream_error` or `turn_timeout`); a second such failure is no verdict on the contract: a skip.
 */
async function retriedOnce<T>(
  send: () => Promise<T>,
  failedHow: (turn: T) => string | undefined,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const turn = await send();
    const failed = failedHow(turn);
    if (failed === undefined) return turn;
    if (attempt === 2)
      throw new Skip(`a plain turn failed twice (${failed}): the model, not the contract; run again`);
  }
}

/** The run's streamed turn, sent on first need (4.4) and shared by the checks. */
export function streamed(ctx: Context): Promise<StreamedTurn> {
  return ctx.once('streamed', () =>
    retriedOnce(
      async () => {
        const turn = await sendPlainTurn(ctx, (chatId, key, body) =>
          ctx.wire.stream(`/api/v1/chats/${chatId}/messages/stream`, { token: ctx.tokens.main, body, key }),
        );
        const { answer } = turn;
        if (answer.status !== 200 || !answer.contentType.startsWith('text/event-stream')) {
          throw new Failure(
            '4.4: 200 text/event-stream',
            `${answer.status} ${answer.contentType || 'no content type'} ${show(answer.body)}`,
            answer,
          );
        }
        return turn;
      },
      ({ answer }) => {
        const end = answer.events.at(-1);
        const code =
          end?.event === 'message.error' ? (end.data as { code?: unknown } | null)?.code : undefined;
        return typeof code === 'string' && TRANSIENT_CODES.has(code) ? `message.error ${code}` : undefined;
      },
    ),
  );
}

/** The run's synchronous turn, sent on first need (4.3) and shared by the checks. */
export function synced(ctx: Context): Promise<SyncTurn> {
  return ctx.once('synced', () =>
    retriedOnce(
      () =>
        sendPlainTurn(ctx, (chatId, key, body) =>
          ctx.wire.call('POST', `/api/v1/chats/${chatId}/messages`, { token: ctx.tokens.main, body, key }),
        ),
      ({ answer }) => {
        if (answer.code !== undefined && TRANSIENT_CODES.has(answer.code) && answer.status >= 500) {
          return `${answer.status} ${answer.code}`;
        }
        expectStatus(answer, 200);
        return undefined;
      },
    ),
  );
}
