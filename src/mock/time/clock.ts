import { MAX_TIMER_MS } from '../../contract/limits.js';

/**
 * Where the mock reads the time and how it waits: inject one to test time-dependent behaviour (created_at,
 * pings, `slow`, interaction expiry) without waiting for real.
 */
export interface MockClock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
  /**
   * Resolves after `ms` milliseconds, or early when `signal` aborts (resolving or rejecting, either is fine).
   * Optional: without it the mock waits with the global `setTimeout`, looked up at each call so that
   * vitest's fake timers drive it.
   */
  sleep?(ms: number, signal?: AbortSignal): Promise<void>;
}

/** The real time: `Date.now` and the global `setTimeout`. */
export const REAL_CLOCK: MockClock = { now: () => Date.now() };

/**
 * Waits `ms` on `clock`; never rejects. Resolves at once when `signal` is already aborted, and when it
 * aborts later. A non-finite `ms` (Infinity) waits for the signal alone; on the global timers, a wait
 * longer than `MAX_TIMER_MS` is re-armed in steps, so that it lasts what was asked.
 */
export async function pause(clock: MockClock, ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return;
  if (!Number.isFinite(ms)) {
    // setTimeout would treat Infinity as 1 ms; only the signal ends this wait.
    if (signal) await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve()));
    else await new Promise<void>(() => {});
    return;
  }
  const wait = clock.sleep ? clock.sleep(Math.max(0, ms), signal) : timerSleep(Math.max(0, ms), signal);
  await wait.catch(() => {});
}

function timerSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const arm = (left: number) => {
      timer =
        left > MAX_TIMER_MS
          ? setTimeout(() => arm(left - MAX_TIMER_MS), MAX_TIMER_MS)
          : setTimeout(done, left);
    };
    arm(ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
