import type { Context } from '../context.js';
import type { FailureKey } from '../failures.js';
import type { CheckName } from '../types.js';

/** One conformance check: the section it tests, what it asserts, and how. */
export interface Check extends CheckName {
  /** The sentence (or table cell) of api-v1 it asserts, verbatim: a failure quotes it with the section. */
  quote: string;
  /** The failures of `ENDPOINT_DOCS` it provokes, each answered as the contract says or failing it. */
  exercises?: readonly FailureKey[];
  /** Throws a `Failure` when the service is off the contract, a `Skip` when the check cannot run. */
  run(ctx: Context): Promise<void>;
}

/** What a failure of `check` expected: its section and the spec's sentence, then what the check looked for. */
export const expectedOf = (check: Check, expected: string): string =>
  `${check.section} "${check.quote}": ${expected}`;
