import fc from 'fast-check';
import { it } from 'vitest';

/**
 * How the fuzzers run. `FUZZ_RUNS` sets the runs of every property (1,000 in the normal test command,
 * 20,000 in `npm run test:fuzz`). The normal command uses a fixed seed per property, so that CI is
 * reproducible; `test:fuzz` draws a fresh one each time unless `FUZZ_SEED` fixes it. A failure names its
 * seed and path: `FUZZ_SEED=<seed> FUZZ_PATH=<path>` replays exactly that counterexample.
 */
export const FUZZ_RUNS = Number(process.env.FUZZ_RUNS ?? 1_000);

/** Per-test timeout for a property of FUZZ_RUNS runs costing about `msPerRun` each on an idle machine. */
export function fuzzTimeout(msPerRun = 5): number {
  // A hang guard: ten times the estimate (a machine 10x slower, or busy), never below the suite's 60 s.
  return Math.max(60_000, FUZZ_RUNS * msPerRun * 10);
}

function seedFor(name: string): number {
  if (process.env.FUZZ_SEED !== undefined) return Number(process.env.FUZZ_SEED);
  if (process.env.FUZZ_RUNS !== undefined) return (Math.random() * 2 ** 31) | 0;
  // A fixed seed per property: the same inputs on every ordinary run.
  let hash = 0x5eed;
  for (const char of name) hash = (Math.imul(hash, 31) + char.charCodeAt(0)) | 0;
  return hash;
}

/** Runs `property` FUZZ_RUNS times; on failure, the error leads with the seed and the replay command. */
export async function fuzz<T>(
  name: string,
  property: fc.IAsyncProperty<T> | fc.IProperty<T>,
  runs = FUZZ_RUNS,
): Promise<void> {
  const seed = seedFor(name);
  const params: fc.Parameters<T> = { numRuns: runs, seed };
  if (process.env.FUZZ_PATH !== undefined) params.path = process.env.FUZZ_PATH;
  try {
    await fc.assert(property as fc.IAsyncProperty<T>, params);
  } catch (error) {
    const path = /path: "([^"]*)"/.exec(String((error as Error).message))?.[1];
    const replay = `FUZZ_SEED=${seed}${path ? ` FUZZ_PATH=${path}` : ''}`;
    (error as Error).message =
      `fuzz "${name}" failed with seed ${seed}; replay: ${replay}\n${(error as Error).message}`;
    throw error;
  }
}

/** A test that runs `property` through `fuzz` (its seed keyed by `name`), timed by `fuzzTimeout(msPerRun)`. */
export function itFuzzes<T>(
  title: string,
  name: string,
  msPerRun: number,
  property: fc.IAsyncProperty<T> | fc.IProperty<T>,
  runs = FUZZ_RUNS,
): void {
  it(title, () => fuzz(name, property, runs), fuzzTimeout(msPerRun));
}
