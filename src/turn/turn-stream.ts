import type { CancelResult } from '../contract/interactions.js';
import { ApiError, TurnError } from '../errors/index.js';
import type { Interaction } from '../interactions/kinds.js';
import type { ActionRequiredEventOf, ErrorEvent, StreamEvent } from '../stream/events.js';
import type { TurnCall } from './call.js';
import { EventStream, type StreamListeners } from './event-stream.js';

/** Every event a live `TurnStream` yields, discriminated by `type`. */
export type TurnStreamEvent = StreamEvent<Interaction>;

/** The turn waits for an answer: `interaction` is typed by `kind` and answers itself (or see `turns.run`). */
export type ActionRequiredEvent = ActionRequiredEventOf<Interaction>;

/** The callbacks of `TurnStream.on`, by name. */
export type TurnStreamListeners = StreamListeners<Interaction>;

/** What a live stream can do to its turn besides reading it. */
export interface TurnControls {
  /** Stops reading and frees the connection. */
  abort: (reason?: unknown) => void;
  /** Asks the service to cancel the turn. */
  cancel: () => Promise<CancelResult>;
  /** Cancels the turn `messageId` only if it still runs; resolves `cancelled: false` when it is over. */
  cancelIfRunning: (messageId: number) => Promise<CancelResult>;
  /** Lets go of what the turn held while it ran (the reading ended). */
  release: () => void;
}

/**
 * A streamed turn sent by this client: an async iterable of typed events with the text folded as it comes,
 * plus `finalTurn()`, `done()`, `text`, `on(...)`, `toReadableStream()`, `tee()`, and control of the turn
 * (`abort()`, `cancel()`). Its interactions answer themselves.
 */
export class TurnStream extends EventStream<Interaction> {
  /** The key the turn was sent with: send it again to read the stored outcome. */
  readonly idempotencyKey: string;
  readonly #call: TurnCall;
  readonly #controls: TurnControls;
  /** A `cancel()` that came before the turn started: sent once it starts (once, however many calls). */
  #pendingCancel:
    | { promise: Promise<CancelResult>; resolve: (result: Promise<CancelResult>) => void }
    | undefined;
  /** Reading ended, at the terminal event or before it. */
  #over = false;

  /** @internal Use `client.turns.stream()`. */
  constructor(
    source: AsyncIterable<StreamEvent<Interaction>[]>,
    call: TurnCall,
    controls: TurnControls,
    stop: (reason?: unknown) => void = controls.abort,
  ) {
    super(source, call.chatId, stop);
    this.#call = call;
    this.#controls = controls;
    this.idempotencyKey = call.idempotencyKey;
  }

  /** The chat of the turn. */
  get chatId(): string {
    return this.#call.chatId;
  }

  /** Stops reading and frees the connection; the turn itself goes on (see `cancel()` and `cancelOnAbort`). */
  abort(reason?: unknown): void {
    this.#controls.abort(reason);
  }

  /**
   * Asks the service to cancel the turn; the stream then ends with a `cancelled` event. Called before the
   * turn started (before `message.start` was read), it is sent as soon as the turn starts; it resolves
   * `{ cancelled: false }` when the stream ends without the turn having started. This ends the whole turn
   * (4.6); an interaction's own `cancel()` only answers that interaction, and the turn goes on.
   *
   * A cancel without `action_id` ends whatever turn the chat runs (4.6), so it is sent only while this turn
   * may still run. After the terminal event (read by this stream or any `tee()` branch), or when the send
   * was refused (409 `api_v1_chat_busy`, `api_v1_idempotency_conflict`) or never sent, it sends nothing and
   * resolves `{ cancelled: false }`. After reading stopped early (an abort, a broken stream), it first looks
   * the turn up in the chat's message listing (one request, two in a chat of more than 200 turns, with the
   * stream's `timeout`): a turn already over resolves `{ cancelled: false }` without a cancel; a lookup
   * that fails rejects with its error and sends nothing. One race remains: a turn that ends between the
   * lookup and the cancel, with the chat's next turn started in that gap, is the one cancelled. An abort
   * before `message.start` was read leaves no id to look up: the cancel is sent as it is.
   *
   * The turn's cancels share one request, before the start and after it: calls made while it is in flight,
   * or after it was answered (from any `tee()` branch, or `cancelOnAbort`), get its outcome and send
   * nothing; after a failed one, the next call sends again.
   */
  cancel(): Promise<CancelResult> {
    // Shared by the branches of a `tee()`: the one that read the end tells the one that has not yet.
    // Nothing sent (the input failed its check): there is no turn of this stream to cancel.
    if (this.#call.ended || (this.#over && !this.#call.sent)) return Promise.resolve(this.#notCancelled());
    const messageId = this.#call.messageId;
    // Reading stopped before the end: the turn may have finished since, and a chat-wide cancel would
    // then reach the next turn. It is looked up first.
    if (this.#over && messageId !== undefined) return this.#controls.cancelIfRunning(messageId);
    if (messageId !== undefined || this.#over) return this.#controls.cancel();
    if (!this.#pendingCancel) {
      let resolve!: (result: Promise<CancelResult>) => void;
      const promise = new Promise<CancelResult>((settle) => {
        resolve = settle;
      });
      this.#pendingCancel = { promise, resolve };
    }
    return this.#pendingCancel.promise;
  }

  protected override failure(end: ErrorEvent): Error {
    return new TurnError(end.error, {
      chatId: this.#call.chatId,
      messageId: this.messageId,
      idempotencyKey: this.#call.idempotencyKey,
    });
  }

  protected override fork(
    source: AsyncIterable<StreamEvent<Interaction>[]>,
    stop: (reason?: unknown) => void,
  ): this {
    return new TurnStream(source, this.#call, this.#controls, stop) as this;
  }

  protected override locate(error: unknown): unknown {
    return this.#call.stamp(error);
  }

  protected override began(messageId: number): void {
    this.#call.messageId = messageId;
    const pending = this.#pendingCancel;
    this.#pendingCancel = undefined;
    pending?.resolve(this.#controls.cancel());
  }

  protected override finished(terminal: boolean, error?: unknown): void {
    this.#over = true;
    if (terminal || refused(error)) this.#call.ended = true;
    this.#controls.release();
    const pending = this.#pendingCancel;
    this.#pendingCancel = undefined;
    pending?.resolve(Promise.resolve(this.#notCancelled()));
  }

  #notCancelled(): CancelResult {
    return { chat_id: this.#call.chatId, cancelled: false };
  }
}

/**
 * Whether a stream's error is the service refusing the send before the stream started (7.4): the chat runs
 * another turn, or the key was used with another body. No turn of this send runs. (A failed re-open is a
 * `StreamInterruptedError`, never one of these.)
 */
function refused(error: unknown): boolean {
  return (
    error instanceof ApiError &&
    (error.code === 'api_v1_chat_busy' || error.code === 'api_v1_idempotency_conflict')
  );
}
