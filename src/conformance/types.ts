/** What became of one check: it passed, it failed, or it could not run here. */
export type Outcome = 'pass' | 'fail' | 'skip';

/** One line of the report: a check, named by the spec section it tests, and its outcome. */
export interface CheckResult {
  /** The section of api-v1 the check tests, such as `6` or `7.1`. */
  section: string;
  /** What the check asserts. */
  title: string;
  /** Its outcome. */
  outcome: Outcome;
  /** On a failure: what the contract expects. */
  expected?: string | undefined;
  /** On a failure: what came instead. */
  got?: string | undefined;
  /** On a failure: `meta.request_id` (or the stream's `request_id`) of the answer at fault, when it had one. */
  requestId?: string | undefined;
  /** On a skip: why the check could not run. */
  reason?: string | undefined;
}

/** The outcome of a conformance run: one result per check run, in order. */
export interface ConformanceReport {
  /** The service's base URL. */
  url: string;
  /** Every check run. */
  results: CheckResult[];
  /** How many checks passed, failed, were skipped. */
  counts: Record<Outcome, number>;
  /** How many requests the run sent. */
  requests: number;
  /** How long it took, in milliseconds. */
  durationMs: number;
  /** True when no check failed: the exit status 0 of `convo-conformance`. */
  ok: boolean;
}
