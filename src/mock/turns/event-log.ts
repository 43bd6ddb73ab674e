import type { EventName } from '../../contract/events.js';

/** One server-sent event of a turn: its name and its JSON payload. */
export interface StreamEvent {
  /** Event name (section 6). */
  event: EventName;
  /** Payload. */
  data: Record<string, unknown>;
}

/**
 * The events of one turn, in order, kept whole: a stream response reads them from the start at its own
 * pace, so the turn runs on whether or not anyone reads (4.4), and a reader that arrives late misses nothing.
 */
export class EventLog {
  readonly #events: StreamEvent[] = [];
  readonly #waiters = new Set<() => void>();
  #closed = false;

  /** A closed log holding `events`: what a replay delivers. */
  static of(events: readonly StreamEvent[]): EventLog {
    const log = new EventLog();
    for (const event of events) log.push(event);
    log.close();
    return log;
  }

  /** Appends an event and wakes the readers. Ignored once closed. */
  push(event: StreamEvent): void {
    if (this.#closed) return;
    this.#events.push(event);
    this.#wake();
  }

  /** No more events: readers past the end get undefined. */
  close(): void {
    this.#closed = true;
    this.#wake();
  }

  /**
   * The event at `index`, waiting for it if need be; undefined when the log closed before it, or when
   * `signal` aborts first.
   */
  async read(index: number, signal: AbortSignal): Promise<StreamEvent | undefined> {
    for (;;) {
      const event = this.#events[index];
      if (event) return event;
      if (this.#closed || signal.aborted) return undefined;
      await new Promise<void>((resolve) => {
        const wake = () => {
          this.#waiters.delete(wake);
          signal.removeEventListener('abort', wake);
          resolve();
        };
        this.#waiters.add(wake);
        signal.addEventListener('abort', wake, { once: true });
      });
    }
  }

  #wake(): void {
    for (const wake of [...this.#waiters]) wake();
  }
}
