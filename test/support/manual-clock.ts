import type { ManualClock } from '../../src/mock/index.js';

// Captured before any test fakes the timers: the wait below must move on the real loop.
const realSetImmediate = globalThis.setImmediate;

/** How many macrotasks `untilSleeping` waits at most: a turn reaches its next sleep in a few. */
const MAX_TURNS = 1_000;

/**
 * Waits, one macrotask at a time, until `clock` holds at least `count` sleepers. Advance a manual clock
 * only once the sleep to be timed is registered: the mock's turn engine yields a macrotask whenever a
 * slice of real time ran out (more often on a busy machine), and a sleep that registers after
 * `advance(ms)` moved the time starts from the new time, so the test would then wait for ever. Bounded by
 * a count of turns, not by time; throws naming what it saw.
 */
export async function untilSleeping(clock: Pick<ManualClock, 'pending'>, count: number): Promise<void> {
  for (let turn = 0; clock.pending() < count; turn++) {
    if (turn === MAX_TURNS) {
      throw new Error(
        `the manual clock holds ${clock.pending()} sleepers after ${MAX_TURNS} turns, not ${count}`,
      );
    }
    await new Promise((resolve) => realSetImmediate(resolve));
  }
}
