import { describe, expect, it, type TestContext } from 'vitest';
import { startedForSuite } from '../support/started.js';
import { TARGETS, type Target } from './targets.js';

/** One e2e case: a name citing its spec section, and what it does with a target. */
export type Case = readonly [name: string, run: (target: Target, context: TestContext) => Promise<void>];

/**
 * The name prefix of a case that asserts a reading: what the in-process mock does where the spec and the
 * mock conventions leave the answer open (docs/readings.md). Another conforming server may answer
 * otherwise, so such a case runs against the in-process mock alone.
 */
export const READING = 'reading:';

/** Runs every case through every target (fetch injection, msw, real HTTP, and CONVO_MOCK_CMD if set). */
export function runOnTargets(suite: string, cases: readonly Case[]): void {
  for (const { name, start } of TARGETS) {
    describe(`${suite} via ${name}`, () => {
      const target = startedForSuite(start, (started) => started.close());
      for (const [title, run] of cases) {
        it(title, (context) => {
          if (title.startsWith(READING) && !target.mock)
            context.skip(
              'a reading of the in-process mock, which the contract leaves open (docs/readings.md)',
            );
          return run(target, context);
        });
      }
    });
  }
}

/** Skips a case that needs the in-process mock's controls when the target is an external server. */
export function needsInProcessMock(target: Target, context: TestContext): NonNullable<Target['mock']> {
  if (!target.mock) context.skip('needs the in-process mock controls, which an external server lacks');
  return target.mock!;
}

/** A refusal whose status the contract leaves to the server: some 4xx. */
export function expectRefused(status: number): void {
  expect(status).toBeGreaterThanOrEqual(400);
  expect(status).toBeLessThan(500);
}
