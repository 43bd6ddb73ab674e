import { ConvoError } from '../errors/index.js';
import { isTerminal, type StreamEvent, type TerminalEvent } from './events.js';

/** What a `Delivery` tells its stream. */
export interface DeliveryHooks<E> {
  /** Each event, just before the consumer gets it. */
  observe(event: E): void;
  /** The terminal event was handed out. */
  ended(event: TerminalEvent): void;
  /** Reading failed, or stopped before the terminal event; runs before the consumer sees `error`. */
  failed(error: unknown): void;
}

/**
 * Hands out the events of a source that yields them a chunk's worth at a time. An event already read costs
 * one resolved promise rather than a step of an async generator (twice the cost, per event). Behaves like
 * the generator it replaces: calls run one after another, the first error ends it, and the source is closed
 * after the terminal event (on the next call), on an error, or on `return()`.
 */
export class Delivery<E extends StreamEvent<unknown>> implements AsyncIterableIterator<E> {
  readonly #source: AsyncIterator<E[]>;
  readonly #hooks: DeliveryHooks<E>;
  #batch: E[] = [];
  #index = 0;
  #terminal = false;
  #closed = false;
  /** The call in progress, when it has to wait for the source: later calls run after it. */
  #waiting: Promise<unknown> | undefined;

  constructor(source: AsyncIterator<E[]>, hooks: DeliveryHooks<E>) {
    this.#source = source;
    this.#hooks = hooks;
  }

  next(): Promise<IteratorResult<E>> {
    if (!this.#waiting && this.#index < this.#batch.length) {
      try {
        return Promise.resolve(this.#hand());
      } catch (error) {
        return this.#track(this.#fail(error));
      }
    }
    return this.#track(this.#after(() => this.#pull()));
  }

  return(): Promise<IteratorResult<E>> {
    return this.#track(
      this.#after(async () => {
        if (!this.#closed && !this.#terminal) this.#hooks.failed(closedEarly());
        await this.#close();
        return { done: true, value: undefined };
      }),
    );
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  /** Runs `step` once the call in progress, if any, settled. */
  #after<T>(step: () => Promise<T>): Promise<T> {
    return this.#waiting ? this.#waiting.then(step, step) : step();
  }

  /** Marks `call` as the one in progress until it settles (before its caller resumes). */
  #track<T>(call: Promise<T>): Promise<T> {
    const tracked: Promise<T> = call.finally(() => {
      if (this.#waiting === tracked) this.#waiting = undefined;
    });
    this.#waiting = tracked;
    return tracked;
  }

  async #pull(): Promise<IteratorResult<E>> {
    if (this.#closed || this.#terminal) {
      await this.#close();
      return { done: true, value: undefined };
    }
    try {
      if (this.#index < this.#batch.length) return this.#hand();
      for (;;) {
        const next = await this.#source.next();
        if (next.done) throw new ConvoError('the stream ended without a terminal event');
        if (next.value.length === 0) continue;
        this.#batch = next.value;
        this.#index = 0;
        return this.#hand();
      }
    } catch (error) {
      return this.#fail(error);
    }
  }

  async #fail(error: unknown): Promise<never> {
    this.#hooks.failed(error);
    await this.#close();
    throw error;
  }

  #hand(): IteratorResult<E> {
    const event = this.#batch[this.#index++]!;
    // A stream held open between events keeps none of the ones it handed out.
    if (this.#index === this.#batch.length) {
      this.#batch = NONE;
      this.#index = 0;
    }
    this.#hooks.observe(event);
    if (event.type !== 'delta' && isTerminal(event)) {
      this.#terminal = true;
      this.#batch = [];
      this.#hooks.ended(event);
    }
    return { done: false, value: event };
  }

  async #close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#batch = [];
    await this.#source.return?.();
  }
}

/** No batch (never written to). */
const NONE: never[] = [];

function closedEarly(): ConvoError {
  return new ConvoError('the stream was closed before its terminal event');
}
