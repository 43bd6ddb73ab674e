import type { CancelResult } from '../contract/interactions.js';
import type { Turn } from '../contract/turn.js';
import { ConvoError } from '../errors.js';
import type { Logger } from '../http/transport.js';
import { toInteraction } from '../interactions/kinds.js';
import { Delivery } from './delivery.js';
import { TurnError } from './errors.js';
import type { TerminalEvent, TurnStreamEvent } from './events.js';
import { StreamState } from './map.js';
import { encodeEvents } from './relay.js';
import { readEvents } from './sse.js';

/** The callbacks of `TurnStream.on`, by name. */
export interface TurnStreamListeners {
  /** Every event. */
  event: (event: TurnStreamEvent) => void;
  /** Each change of the text: the delta and the whole text after it. */
  text: (delta: string, snapshot: string, replace: boolean) => void;
  /** The turn began. */
  start: (event: Extract<TurnStreamEvent, { type: 'start' }>) => void;
  /** Steps progressed. */
  step: (event: Extract<TurnStreamEvent, { type: 'step' }>) => void;
  /** The turn waits for an answer. */
  action_required: (event: Extract<TurnStreamEvent, { type: 'action_required' }>) => void;
  /** The stream was re-opened after a break. */
  resumed: (event: Extract<TurnStreamEvent, { type: 'resumed' }>) => void;
  /** The turn ended: completed, cancelled, or failed. */
  end: (event: Extract<TurnStreamEvent, { type: 'completed' | 'cancelled' | 'error' }>) => void;
}

/** What a `TurnStream` knows of its turn besides its events. */
export interface TurnStreamInit {
  /** The chat of the turn, when known up front. */
  chatId?: string | undefined;
  /** The key the turn was sent with, when there is one. */
  idempotencyKey?: string | undefined;
  /** Stops reading and frees the connection. */
  abort?: ((reason?: unknown) => void) | undefined;
  /** Asks the service to cancel the turn. */
  cancel?: (() => Promise<CancelResult>) | undefined;
}

/** Options of `TurnStream.fromReadableStream`. */
export interface RelayReadOptions {
  /** No byte for this long means the relay is dead (default 45,000 ms). */
  idleTimeout?: number | undefined;
  /** Surface `ping` events (default false). */
  pings?: boolean | undefined;
  /** Where to log dropped events. */
  logger?: Logger | undefined;
  /** Aborts reading. */
  signal?: AbortSignal | undefined;
}

type Terminal = TerminalEvent;

/**
 * A streamed turn: an async iterable of typed events with the text folded as it comes, plus the helpers
 * built on it (`finalTurn()`, `text`, `on(...)`, `toReadableStream()`, `tee()`). It can be iterated once;
 * `finalTurn()` and the callbacks work with or without a `for await` of your own.
 */
export class TurnStream implements AsyncIterable<TurnStreamEvent> {
  /** The key the turn was sent with: send it again to read the stored outcome. */
  readonly idempotencyKey: string | undefined;
  /** Events a chunk's worth at a time: the layers below take one async step per chunk, not per event. */
  readonly #source: AsyncIterator<TurnStreamEvent[]>;
  readonly #init: TurnStreamInit;
  readonly #listeners = new Map<keyof TurnStreamListeners, Set<(...args: never[]) => void>>();
  readonly #ended: Promise<Terminal>;
  #settle!: { resolve: (event: Terminal) => void; reject: (error: unknown) => void };
  #iterating = false;
  #text = '';
  #chatId: string | undefined;
  #messageId: number | undefined;

  /** @internal Use `client.turns.stream()` or `TurnStream.fromReadableStream()`. */
  constructor(source: AsyncIterable<TurnStreamEvent[]>, init: TurnStreamInit = {}) {
    this.#source = source[Symbol.asyncIterator]();
    this.#init = init;
    this.idempotencyKey = init.idempotencyKey;
    this.#chatId = init.chatId;
    this.#ended = new Promise<Terminal>((resolve, reject) => {
      this.#settle = { resolve, reject };
    });
    this.#ended.catch(() => {});
  }

  /** Reads a turn relayed by `toReadableStream()` (for instance in a browser); folds it the same way. */
  static fromReadableStream(stream: ReadableStream<Uint8Array>, options: RelayReadOptions = {}): TurnStream {
    const state = new StreamState({
      pings: options.pings ?? false,
      logger: options.logger,
      interaction: (raw, chatId) =>
        toInteraction(raw, { actions: undefined, chatId, receivedAt: Date.now() }),
    });
    const events = readEvents(stream, { idleMs: options.idleTimeout ?? 45_000, signal: options.signal });
    return new TurnStream(relayed(state.connection(events)));
  }

  /** The text so far (the whole answer once the turn completed). */
  get text(): string {
    return this.#text;
  }

  /** The chat of the turn. */
  get chatId(): string | undefined {
    return this.#chatId;
  }

  /** The turn's id, once `message.start` arrived. */
  get messageId(): number | undefined {
    return this.#messageId;
  }

  /** Registers a callback; callbacks run as events are read, by your loop or by `finalTurn()`. */
  on<K extends keyof TurnStreamListeners>(name: K, listener: TurnStreamListeners[K]): this {
    const set = this.#listeners.get(name) ?? new Set();
    set.add(listener as (...args: never[]) => void);
    this.#listeners.set(name, set);
    return this;
  }

  /** Removes a callback. */
  off<K extends keyof TurnStreamListeners>(name: K, listener: TurnStreamListeners[K]): this {
    this.#listeners.get(name)?.delete(listener as (...args: never[]) => void);
    return this;
  }

  /** Every event, in order, ending after the terminal one. A second iteration throws: use `tee()`. */
  [Symbol.asyncIterator](): AsyncIterator<TurnStreamEvent> {
    if (this.#iterating) throw new ConvoError('a TurnStream can be iterated once; use tee() for two readers');
    this.#iterating = true;
    return new Delivery(this.#source, {
      observe: (event) => this.#observe(event),
      ended: (event) => this.#settle.resolve(event),
      failed: (error) => {
        if (error instanceof ConvoError && this.idempotencyKey) error.idempotencyKey ??= this.idempotencyKey;
        this.#settle.reject(error);
      },
    });
  }

  /** The finished turn (completed or cancelled); rejects with `TurnError` when the turn failed. */
  async finalTurn(): Promise<Turn> {
    if (!this.#iterating) for await (const _ of this);
    const end = await this.#ended;
    if (end.type === 'error') {
      throw new TurnError(end.error, {
        chatId: this.#chatId ?? '',
        messageId: this.#messageId,
        idempotencyKey: this.idempotencyKey ?? '',
      });
    }
    return end.turn;
  }

  /** The complete text of the finished turn. */
  async finalText(): Promise<string> {
    return (await this.finalTurn()).content;
  }

  /** Stops reading and frees the connection; the turn itself goes on (see `cancel()`). */
  abort(reason?: unknown): void {
    this.#init.abort?.(reason);
  }

  /**
   * Asks the service to cancel the whole turn (4.6); the stream then ends with a `cancelled` event. An
   * interaction's own `cancel()` only answers that interaction, and the turn goes on.
   */
  async cancel(): Promise<CancelResult> {
    if (!this.#init.cancel) throw new ConvoError('this stream has no client to cancel its turn with');
    return this.#init.cancel();
  }

  /** The events as SSE bytes, for relaying to a browser that reads them with `fromReadableStream`. */
  toReadableStream(): ReadableStream<Uint8Array> {
    return encodeEvents(this);
  }

  /** Two streams that each see every event; this one must not be read after. */
  tee(): [TurnStream, TurnStream] {
    const iterator = this[Symbol.asyncIterator]();
    const [a, b] = new ReadableStream<TurnStreamEvent>({
      async pull(controller) {
        try {
          const next = await iterator.next();
          if (next.done) controller.close();
          else controller.enqueue(next.value);
        } catch (error) {
          controller.error(error);
        }
      },
      async cancel(reason) {
        await iterator.return?.(reason);
      },
    }).tee();
    const init = { ...this.#init, chatId: this.#chatId };
    return [new TurnStream(fromStream(a), init), new TurnStream(fromStream(b), init)];
  }

  #observe(event: TurnStreamEvent): void {
    switch (event.type) {
      case 'start':
        this.#chatId = event.chat_id;
        this.#messageId = event.message_id;
        break;
      case 'delta':
        this.#text = event.snapshot;
        break;
      case 'completed':
      case 'cancelled':
        this.#text = event.turn.content;
        break;
    }
    // Without callbacks (the common case) an event costs no lookups and no argument lists.
    if (this.#listeners.size > 0) this.#notify(event);
  }

  #notify(event: TurnStreamEvent): void {
    switch (event.type) {
      case 'start':
        this.#emit('start', event);
        break;
      case 'delta':
        this.#emit('text', event.text, event.snapshot, event.replace);
        break;
      case 'step':
      case 'action_required':
      case 'resumed':
        this.#emit(event.type, event as never);
        break;
      case 'completed':
      case 'cancelled':
      case 'error':
        this.#emit('end', event);
        break;
    }
    this.#emit('event', event);
  }

  #emit(name: keyof TurnStreamListeners, ...args: unknown[]): void {
    const set = this.#listeners.get(name);
    if (!set) return;
    for (const listener of set) (listener as (...a: unknown[]) => void)(...args);
  }
}

async function* relayed(
  events: AsyncGenerator<TurnStreamEvent[], boolean>,
): AsyncGenerator<TurnStreamEvent[]> {
  if (!(yield* events)) throw new ConvoError('the relayed stream ended before its terminal event');
}

async function* fromStream(stream: ReadableStream<TurnStreamEvent>): AsyncGenerator<TurnStreamEvent[]> {
  const reader = stream.getReader();
  try {
    for (;;) {
      const next = await reader.read();
      if (next.done) return;
      yield [next.value];
    }
  } finally {
    reader.releaseLock();
  }
}
