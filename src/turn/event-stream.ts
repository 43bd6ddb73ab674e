import type { Turn } from '../contract/turn.js';
import { ConvoError } from '../errors/index.js';
import { Delivery } from '../stream/delivery.js';
import { type ErrorEvent, isTerminal, type StreamEvent, type TerminalEvent } from '../stream/events.js';
import { encodeEvents, type Relayable } from '../stream/relay.js';

/** The callbacks of `on`, by name, for a stream whose interactions are of type `I`. */
export interface StreamListeners<I> {
  /** Every event. */
  event: (event: StreamEvent<I>) => void;
  /**
   * Each change of the text: the delta, the whole text after it, and whether the delta replaces the text
   * (a failover: discard what was shown and show `snapshot`) rather than extends it.
   */
  text: (delta: string, snapshot: string, replace: boolean) => void;
  /** The turn began. */
  start: (event: Extract<StreamEvent<I>, { type: 'start' }>) => void;
  /** Steps progressed. */
  step: (event: Extract<StreamEvent<I>, { type: 'step' }>) => void;
  /** The turn waits for an answer. */
  action_required: (event: Extract<StreamEvent<I>, { type: 'action_required' }>) => void;
  /** The stream was re-opened after a break. */
  resumed: (event: Extract<StreamEvent<I>, { type: 'resumed' }>) => void;
  /** The turn ended: completed, cancelled, or failed (`message.error`). */
  end: (event: TerminalEvent) => void;
  /** Reading failed (the stream broke for good, was aborted, or ended early): the error the reader gets. */
  error: (error: unknown) => void;
}

/**
 * What live and relayed streams share: an async iterable of typed events with the text folded as it
 * comes, plus the helpers built on it. It can be iterated once; `finalTurn()`, `done()` and the callbacks
 * work with or without a `for await` of your own.
 */
export abstract class EventStream<I extends Relayable> implements AsyncIterable<StreamEvent<I>> {
  /** Events a chunk's worth at a time: the layers below take one async step per chunk, not per event. */
  readonly #source: AsyncIterator<StreamEvent<I>[]>;
  /** Made by the first `on()`: most streams have no callbacks. */
  #listeners: Map<keyof StreamListeners<I>, Set<(...args: never[]) => void>> | undefined;
  /** How reading ended, once it did: the terminal event, or the error the reader got. */
  #outcome: { end: TerminalEvent } | { error: unknown } | undefined;
  /** `done()` waiting for the end (made by the first such call: a stream read by a loop needs none). */
  #waiting:
    | {
        promise: Promise<TerminalEvent>;
        settle: (outcome: { end: TerminalEvent } | { error: unknown }) => void;
      }
    | undefined;
  #iterating = false;
  #text = '';
  #messageId: number | undefined;
  /**
   * Ends the reading below this stream at once, so that cancelling `toReadableStream()` or both sides of
   * `tee()` never waits for the next event (a source without one closes when that event comes).
   */
  readonly #stop: (reason?: unknown) => void;
  /** The chat of the turn, as far as it is known. */
  protected knownChatId: string | undefined;

  constructor(
    source: AsyncIterable<StreamEvent<I>[]>,
    chatId: string | undefined,
    stop: (reason?: unknown) => void = () => {},
  ) {
    this.#source = source[Symbol.asyncIterator]();
    this.#stop = stop;
    this.knownChatId = chatId;
  }

  /** The text so far (the whole answer once the turn completed). */
  get text(): string {
    return this.#text;
  }

  /** The turn's id, once `message.start` arrived. */
  get messageId(): number | undefined {
    return this.#messageId;
  }

  /** Registers a callback; callbacks run as events are read, by your loop or by `finalTurn()` / `done()`. */
  on<K extends keyof StreamListeners<I>>(name: K, listener: StreamListeners<I>[K]): this {
    this.#listeners ??= new Map();
    const set = this.#listeners.get(name) ?? new Set();
    set.add(listener as (...args: never[]) => void);
    this.#listeners.set(name, set);
    return this;
  }

  /** Removes a callback. */
  off<K extends keyof StreamListeners<I>>(name: K, listener: StreamListeners<I>[K]): this {
    this.#listeners?.get(name)?.delete(listener as (...args: never[]) => void);
    return this;
  }

  /** Every event, in order, ending after the terminal one. A second iteration throws: use `tee()`. */
  [Symbol.asyncIterator](): AsyncIterator<StreamEvent<I>> {
    if (this.#iterating) throw new ConvoError('a TurnStream can be iterated once; use tee() for two readers');
    this.#iterating = true;
    this.started();
    return new Delivery(this.#source, {
      observe: (event) => this.#observe(event),
      ended: (event) => {
        this.#end({ end: event });
        this.#emit('end', event);
      },
      failed: (error) => {
        const located = this.locate(error);
        this.#end({ error: located });
        this.finished(false, error);
        this.#emit('error', located);
      },
    });
  }

  /**
   * The terminal event once the stream ended: `completed`, `cancelled` or `error` (a failed turn is an
   * outcome here, not a rejection); rejects when reading failed. Reads the stream if nothing else does.
   */
  async done(): Promise<TerminalEvent> {
    if (!this.#iterating) for await (const _ of this);
    const outcome = this.#outcome;
    if (outcome) return 'end' in outcome ? outcome.end : Promise.reject(outcome.error);
    if (!this.#waiting) {
      let settle!: (outcome: { end: TerminalEvent } | { error: unknown }) => void;
      const promise = new Promise<TerminalEvent>((resolve, reject) => {
        settle = (outcome) => ('end' in outcome ? resolve(outcome.end) : reject(outcome.error));
      });
      this.#waiting = { promise, settle };
    }
    return this.#waiting.promise;
  }

  /** Reading ended: what `done()` says from now on, and to whoever waits for it. */
  #end(outcome: { end: TerminalEvent } | { error: unknown }): void {
    this.#outcome = outcome;
    this.#waiting?.settle(outcome);
    this.#waiting = undefined;
  }

  /** The finished turn (completed or cancelled); rejects with the stream's `TurnFailedError` when it failed. */
  async finalTurn(): Promise<Turn> {
    const end = await this.done();
    if (end.type === 'error') throw this.failure(end);
    return end.turn;
  }

  /** The complete text of the finished turn. */
  async finalText(): Promise<string> {
    return (await this.finalTurn()).content;
  }

  /** The events as SSE bytes, for relaying to a browser that reads them with `fromReadableStream`. */
  toReadableStream(): ReadableStream<Uint8Array> {
    return encodeEvents(this, this.#stop);
  }

  /** Two streams that each see every event; this one must not be read after. */
  tee(): [this, this] {
    const iterator = this[Symbol.asyncIterator]();
    const [a, b] = new ReadableStream<StreamEvent<I>>({
      async pull(controller) {
        try {
          const next = await iterator.next();
          if (next.done) controller.close();
          else controller.enqueue(next.value);
        } catch (error) {
          controller.error(error);
        }
      },
      cancel: (reason) => {
        // Both readers left: end the reading below rather than wait for the next event to close it.
        this.#stop(reason);
        iterator.return?.(reason)?.catch(() => {});
      },
    }).tee();
    return [
      branch(a, (source, stop) => this.fork(source, stop)),
      branch(b, (source, stop) => this.fork(source, stop)),
    ];
  }

  /** The error `finalTurn()` throws for a `message.error`. */
  protected abstract failure(end: ErrorEvent): Error;
  /** A stream of the same turn over `source`, which `stop` ends (for `tee()`). */
  protected abstract fork(source: AsyncIterable<StreamEvent<I>[]>, stop: (reason?: unknown) => void): this;
  /** Says where the turn can be found on an error the reader gets. */
  protected abstract locate(error: unknown): unknown;
  /** Reading began. */
  protected started(): void {}
  /**
   * Reading ended: with `terminal` true at the terminal event, otherwise before it, with the `error` the
   * reading failed with (a failure, an abort).
   */
  protected finished(_terminal: boolean, _error?: unknown): void {}
  /** The turn began (`message.start`). */
  protected began(_messageId: number): void {}

  #observe(event: StreamEvent<I>): void {
    switch (event.type) {
      case 'start':
        this.knownChatId = event.chat_id;
        this.#messageId = event.message_id;
        this.began(event.message_id);
        break;
      case 'delta':
        this.#text = event.snapshot;
        break;
      case 'completed':
      case 'cancelled':
        this.#text = event.turn.content;
        break;
    }
    // Every terminal event of the contract's table ends the reading, one added to it too (a delta never does).
    if (event.type !== 'delta' && isTerminal(event)) this.finished(true);
    // Without callbacks (the common case) an event costs no lookups and no argument lists.
    if (this.#listeners) this.#notify(event);
  }

  #notify(event: StreamEvent<I>): void {
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
    }
    this.#emit('event', event);
  }

  #emit(name: keyof StreamListeners<I>, ...args: unknown[]): void {
    const set = this.#listeners?.get(name);
    if (!set) return;
    for (const listener of set) (listener as (...a: unknown[]) => void)(...args);
  }
}

/** A stream over one branch of a tee, whose `stop` cancels the branch (a pending read then ends at once). */
function branch<E, S>(
  stream: ReadableStream<E>,
  make: (source: AsyncIterable<E[]>, stop: (reason?: unknown) => void) => S,
): S {
  const reader = stream.getReader();
  return make(fromReader(reader), (reason) => {
    reader.cancel(reason).catch(() => {});
  });
}

async function* fromReader<E>(reader: ReadableStreamDefaultReader<E>): AsyncGenerator<E[]> {
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
