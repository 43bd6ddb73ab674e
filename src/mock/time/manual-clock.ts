import type { MockClock } from './clock.js';

/** A clock that only moves when told: `advance(ms)` runs every sleep that falls due, in time order. */
export interface ManualClock extends MockClock {
  /** The current time, in ms since the epoch. */
  now(): number;
  /** A sleep that resolves when `advance` reaches its deadline, or when `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** Moves time forward by `ms`, waking each due sleeper and letting its continuation run before the next. */
  advance(ms: number): Promise<void>;
  /** How many sleeps are waiting. */
  pending(): number;
}

interface Sleeper {
  at: number;
  order: number;
  wake: () => void;
}

/**
 * Creates a manual clock starting at `start` (ms since the epoch; 2026-01-01T00:00:00Z by default), for
 * `createMock({ clock })` in tests: pings, `slow`, waits and interaction expiry then happen exactly when
 * the test advances the time.
 */
export function createManualClock(start = Date.UTC(2026, 0, 1)): ManualClock {
  let time = start;
  let order = 0;
  const sleepers = new Set<Sleeper>();
  return {
    now: () => time,
    sleep(ms, signal) {
      return new Promise<void>((resolve) => {
        if (signal?.aborted) return resolve();
        const sleeper: Sleeper = {
          at: time + Math.max(0, ms),
          order: order++,
          wake: () => {
            sleepers.delete(sleeper);
            signal?.removeEventListener('abort', sleeper.wake);
            resolve();
          },
        };
        sleepers.add(sleeper);
        signal?.addEventListener('abort', sleeper.wake, { once: true });
      });
    },
    async advance(ms) {
      const target = time + ms;
      for (;;) {
        const due = [...sleepers]
          .filter((sleeper) => sleeper.at <= target)
          .sort((a, b) => a.at - b.at || a.order - b.order)[0];
        if (!due) break;
        time = Math.max(time, due.at);
        due.wake();
        // Let the woken code run (and perhaps sleep again) before the next deadline is looked at.
        await settle();
      }
      time = target;
      await settle();
    },
    pending: () => sleepers.size,
  };
}

// A few macrotask turns: enough for promise chains started by a wake-up to reach their next await.
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise<void>((resolve) => setTimeout(resolve, 0));
}
