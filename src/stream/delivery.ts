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

/** What a call that waits does: read on, close early, or fail with the error a handed-out event raised. */
type Step = 'pull' | 'return' | 'fail';

/**
 * Hands out the events of a source that yields them a chunk's worth at a time. An event already read costs
 * one resolved promise rather than a step of an async generator (twice the cost, per event); a call that
 * waits for the source is one async step, with no promise chained for its bookkeeping. Behaves like the
 * generator it replaces: calls run one after another, the first error ends it, and the source is closed
 * after the terminal event (on the next call), on an error, or on `return()`.
 */
export class Delivery<E extends StreamEvent<unknown>> implements AsyncIterableIterator<E> {
  readonly #source: AsyncIterator<E[]>;
  readonly #hooks: DeliveryHooks<E>;
  #batch: E[] = [];
  #index = 0;
  #terminal = false;
  #closed = false;
  /** Calls that had to wait (for the source, or for one another) and have not finished yet. */
  #waiting = 0;
  /** The last of them, while there are any: the next call runs after it. */
  #last: Promise<unknown> | undefined;

  constructor(source: AsyncIterator<E[]>, hooks: DeliveryHooks<E>) {
    this.#source = source;
    this.#hooks = hooks;
  }

  next(): Promise<IteratorResult<E>> {
    if (this.#waiting === 0 && this.#index < this.#batch.length) {
      try {
        return Promise.resolve(this.#hand());
      } catch (error) {
        return this.#queue('fail', error);
      }
    }
    return this.#queue('pull');
  }

  return(): Promise<IteratorResult<E>> {
    return this.#queue('return');
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  /** Starts `step` once the calls in progress, if any, finished (`#run` always waits for something first). */
  #queue(step: Step, error?: unknown): Promise<IteratorResult<E>> {
    const previous = this.#last;
    this.#waiting++;
    const call = this.#run(previous, step, error);
    this.#last = call;
    return call;
  }

  /**
   * One call that waits: after `previous`, it reads on (the source's next chunk when the batch is spent),
   * closes early, or fails. One async step, and nothing chained for its bookkeeping.
   */
  async #run(
    previous: Promise<unknown> | undefined,
    step: Step,
    failure?: unknown,
  ): Promise<IteratorResult<E>> {
    try {
      if (previous) await previous.catch(ignore);
      const open = !this.#closed && !this.#terminal;
      if (step === 'pull' && open) {
        try {
          while (this.#index >= this.#batch.length) {
            const next = await this.#source.next();
            if (next.done) throw new ConvoError('the stream ended without a terminal event');
            this.#batch = next.value;
            this.#index = 0;
          }
          return this.#hand();
        } catch (error) {
          step = 'fail';
          failure = error;
        }
      }
      // A read gets here only once the stream is over: what is still open here is a return() before the end.
      if (step === 'fail') this.#hooks.failed(failure);
      else if (open) this.#hooks.failed(closedEarly());
      await this.#close();
      if (step === 'fail') throw failure;
      return { done: true, value: undefined };
    } finally {
      // Before the caller resumes: a call it makes then does not wait for this one.
      if (--this.#waiting === 0) this.#last = undefined;
    }
  }

  #hand(): IteratorResult<E> {
    const event = this.#batch[this.#index++]!;
    // A stream held open between events keeps none of the ones it handed out.
    // Stryker disable next-line ConditionalExpression,BlockStatement: a spent batch kept reads the same; only memory sees it.
    if (this.#index === this.#batch.length) {
      this.#batch = NONE;
      this.#index = 0;
    }
    this.#hooks.observe(event);
    // Stryker disable next-line ConditionalExpression,StringLiteral: a shortcut, a delta is never terminal.
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

function ignore(): void {}

/** No batch (never written to). */
const NONE: never[] = [];

function closedEarly(): ConvoError {
  return new ConvoError('the stream was closed before its terminal event');
}
