import type { CancelResult } from '../contract/interactions.js';
import { LIMITS } from '../contract/limits.js';
import {
  type Turn,
  TurnSchema,
  type TurnSend,
  TurnSendSchema,
  type TurnStreamBody,
  TurnStreamBodySchema,
} from '../contract/turn.js';
import { type ApiError, ConvoError, TimeoutError } from '../errors.js';
import { newIdempotencyKey } from '../http/idempotency.js';
import type { RequestOptions, Transport } from '../http/transport.js';
import { isTurnInProgress, sendKeyed, turnRepeatable } from '../http/turn-retry.js';
import { toInteraction } from '../interactions/kinds.js';
import { type RunHandlers, runTurn } from '../interactions/run.js';
import { httpTurnEvents } from '../stream/connect.js';
import { StreamState } from '../stream/map.js';
import { TurnStream } from '../stream/turn-stream.js';
import { checkInput } from '../validate.js';
import type { Actions } from './actions.js';
import { chatPath } from './chats.js';
import { Resource } from './resource.js';

/** Options of a turn call: a request's options and the turn's `Idempotency-Key`. */
export interface TurnOptions extends RequestOptions {
  /** The key that makes the turn idempotent; a random UUID when absent. Persist it to read the outcome later. */
  idempotencyKey?: string | undefined;
}

/** A turn as `send` returns it, with the key it was sent under. */
export type SentTurn = Turn & {
  /** The `Idempotency-Key` this turn was sent with: sending it again returns the same turn. */
  readonly idempotencyKey: string;
};

/** Options of a streamed turn. */
export interface StreamOptions extends TurnOptions {
  /** No byte (not even a ping) for this long means the connection is dead (default 45,000 ms: 3 pings). */
  idleTimeout?: number | undefined;
  /** How many times a broken stream is re-opened with its key before giving up (default 5). */
  maxResumes?: number | undefined;
  /** Yield `ping` events too (default false). */
  pings?: boolean | undefined;
}

/** Three ping intervals: one late ping is not a dead connection, three are. */
const DEFAULT_IDLE_MS = 45_000;

/** A synchronous send waits past the service's own 30-minute cut, so the service's 504 is what ends it. */
const SYNC_TIMEOUT_MS = LIMITS.syncTurnMaxMs + 60_000;

/** `client.turns`: sending turns (4.3, 4.4) and cancelling them (4.6). */
export class Turns extends Resource {
  readonly #actions: Actions;

  /** @internal */
  constructor(transport: Transport, actions: Actions) {
    super(transport);
    this.#actions = actions;
  }

  /**
   * Streams a turn (`permission_mode` `manual` by default). Returns at once; errors before the stream
   * starts are thrown when it is first read. A broken connection is recovered through the key.
   */
  stream(chatId: string, body: TurnStreamBody, options: StreamOptions = {}): TurnStream {
    const path = `chats/${chatPath(chatId)}/messages/stream`;
    checkInput(TurnStreamBodySchema, body);
    const idempotencyKey = options.idempotencyKey ?? newIdempotencyKey();
    const controller = new AbortController();
    const signal = options.signal ? AbortSignal.any([options.signal, controller.signal]) : controller.signal;
    const logger = this.transport.logger;
    const events = httpTurnEvents(
      {
        transport: this.transport,
        path,
        body,
        chatId,
        idempotencyKey,
        idleMs: options.idleTimeout ?? DEFAULT_IDLE_MS,
        maxResumes: options.maxResumes ?? 5,
        settleMs: SYNC_TIMEOUT_MS,
        options: { ...options, signal },
        logger,
      },
      new StreamState({
        pings: options.pings ?? false,
        logger,
        interaction: (raw) => toInteraction(raw, { actions: this.#actions, chatId, receivedAt: Date.now() }),
      }),
    );
    return new TurnStream(events, {
      chatId,
      idempotencyKey,
      abort: (reason) => controller.abort(reason),
      cancel: () => this.cancel(chatId),
    });
  }

  /**
   * Streams a turn and answers each interaction through its handler, resolving with the finished turn.
   * A kind without a handler gets the safe default: tools rejected, plan rejected, elicitation declined,
   * auth cancelled. A handler that throws cancels the turn, then the error is thrown.
   */
  run(chatId: string, body: TurnStreamBody, options: StreamOptions & RunHandlers = {}): Promise<Turn> {
    return runTurn(this.stream(chatId, body, options), options, this.transport.logger);
  }

  /** Cancels the chat's running turn (4.6); idempotent: `cancelled` says whether a turn was running. */
  cancel(
    chatId: string,
    options: RequestOptions & { actionId?: string | undefined } = {},
  ): Promise<CancelResult> {
    const { actionId, ...request } = options;
    return this.#actions.cancel(chatId, actionId === undefined ? {} : { action_id: actionId }, request);
  }

  /**
   * Sends a turn and waits for the whole answer (`permission_mode` is always `auto` on this channel).
   * Repeats, with the same key, exactly what the contract says is safe; polls while the key's turn runs.
   * Every error it throws carries `idempotencyKey`.
   */
  async send(chatId: string, body: TurnSend, options: TurnOptions = {}): Promise<SentTurn> {
    const path = `chats/${chatPath(chatId)}/messages`;
    checkInput(TurnSendSchema, body);
    const key = options.idempotencyKey ?? newIdempotencyKey();
    const timeout = options.timeout ?? SYNC_TIMEOUT_MS;
    const deadline = Date.now() + timeout;
    const settings = this.transport.retrySettings(options);
    const call = {
      method: 'POST',
      path,
      body: { ...body, permission_mode: 'auto' },
      schema: TurnSchema,
      retry: turnRepeatable,
      headers: { 'idempotency-key': key },
      options: { ...options, timeout },
    } as const;
    try {
      const { data } = await sendKeyed(() => this.transport.attempt(call), {
        deadline,
        settings,
        signal: options.signal,
      });
      return { ...data, idempotencyKey: key };
    } catch (error) {
      const failure = isTurnInProgress(error) ? stillRunning(timeout, error) : error;
      if (failure instanceof ConvoError) failure.idempotencyKey = key;
      throw failure;
    }
  }
}

/** The call's timeout passed while the key's turn still ran (polling ends there): a timeout, not a refusal. */
function stillRunning(timeout: number, error: ApiError): TimeoutError {
  return new TimeoutError(
    `the turn still ran after ${timeout} ms: send again with the same key (idempotencyKey) to read its outcome`,
    { cause: error },
  );
}
