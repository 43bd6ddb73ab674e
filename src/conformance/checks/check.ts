import type { Context } from '../context.js';
import type { CheckName } from '../types.js';

/** One conformance check: the section it tests, what it asserts, and how. */
export interface Check extends CheckName {
  /** Throws a `Failure` when the service is off the contract, a `Skip` when the check cannot run. */
  run(ctx: Context): Promise<void>;
}
