import type { ToolApproval } from '../index.js';
import type { LiveTurn } from './readable.js';

/** How many reads paused at a tool approval a transport holds open by default (`maxPausedReads`). */
export const MAX_PAUSED_READS = 100;

/** A turn read up to a tool approval, kept open for the answer. */
export interface PausedRead {
  turn: LiveTurn;
  approval: ToolApproval;
}

/**
 * The reads paused at a tool approval, by chat, each held open so that the answer continues it and the
 * rest of the turn streams live. Each is held until the approval's deadline, and at most `max` at once:
 * holding one more releases the least recently held. Releasing a read only stops reading: the turn waits
 * on the service, and its answer then reads it again by its key.
 */
export class PausedReads {
  /** In the order they were held: the first is the least recently used. */
  readonly #reads = new Map<string, PausedRead & { timer: ReturnType<typeof setTimeout> }>();
  readonly #max: number;

  /** At most `max` reads held open at once. */
  constructor(max: number) {
    this.#max = max;
  }

  /**
   * Holds the chat's read, paused at `approval`: releases the chat's previous one, and the least recently
   * held beyond the bound.
   */
  hold(chatId: string, turn: LiveTurn, approval: ToolApproval): void {
    this.release(chatId);
    // Every way a read leaves the map clears its timer: when this fires, the chat holds this read.
    const timer = setTimeout(() => this.release(chatId), approval.expiresAt - Date.now());
    // A pending approval does not keep a Node process alive.
    (timer as { unref?: () => void }).unref?.();
    this.#reads.set(chatId, { turn, approval, timer });
    for (const oldest of this.#reads.keys()) {
      if (this.#reads.size <= this.#max) break;
      this.release(oldest);
    }
  }

  /**
   * The chat's read of the turn keyed `idempotencyKey`, no longer held (the caller continues it); a read
   * the chat holds of another turn is released.
   */
  take(chatId: string, idempotencyKey: string): PausedRead | undefined {
    const paused = this.#reads.get(chatId);
    if (paused?.turn.stream.idempotencyKey !== idempotencyKey) {
      this.release(chatId);
      return undefined;
    }
    this.#reads.delete(chatId);
    clearTimeout(paused.timer);
    return paused;
  }

  /** Stops the chat's held read, if any; the turn itself waits on the service until its deadline. */
  release(chatId: string): void {
    const paused = this.#reads.get(chatId);
    if (!paused) return;
    this.#reads.delete(chatId);
    clearTimeout(paused.timer);
    paused.turn.stream.abort();
  }
}
