/**
 * What became of one check: it passed; it failed (the service is off the contract); it warned (the
 * service is off near-universal practice where the spec is silent: never fails the run); or it could not
 * run here.
 */
export type Outcome = 'pass' | 'fail' | 'warn' | 'skip';

/** What names a check in a report: the section of api-v1 it tests (`6`, `7.1`) and what it asserts. */
export interface CheckName {
  /** The section of api-v1, such as `6` or `7.1`. */
  section: string;
  /** What it asserts. */
  title: string;
}

/** How a result blocked by an earlier check's failure names that check. */
export const blockedBy = (check: CheckName): string => `${check.section} "${check.title}"`;

/** The request whose answer a failure is about. */
export interface FailedRequest {
  /** Its method and path: `GET /api/v1/chats/…`. */
  call: string;
  /** The status answered, when one was. */
  status?: number | undefined;
  /** `meta.request_id` (or the stream's `request_id`), when the answer had one. */
  requestId?: string | undefined;
}

/** One line of the report: a check, named by the spec section it tests, and its outcome. */
export interface CheckResult {
  /** The section of api-v1 the check tests, such as `6` or `7.1`. */
  section: string;
  /** What the check asserts. */
  title: string;
  /** Its outcome. */
  outcome: Outcome;
  /** On a failure or warning: what the contract (or practice) expects. */
  expected?: string | undefined;
  /** On a failure or warning: what came instead. */
  got?: string | undefined;
  /** On a failure or warning: the request at fault, when one was. */
  request?: FailedRequest | undefined;
  /** On a failure: `meta.request_id` (or the stream's `request_id`) of the answer at fault, when it had one. */
  requestId?: string | undefined;
  /** On a skip: why the check could not run. */
  reason?: string | undefined;
}

/** The endpoints, statuses and message codes of the contract a run exercised, and those it did not. */
export interface Coverage {
  /** Each endpoint of section 4 (`GET /api/v1/chats/{chat_id}`) the run called. */
  endpoints: string[];
  /** Endpoints of section 4 the run never called. */
  endpointsMissed: string[];
  /** Each status the run saw answered. */
  statuses: number[];
  /** Each code of the contract's failures (sections 5, 6, 7; `CONTRACT_CODES`) the run saw answered. */
  codes: string[];
  /** Codes of the contract's failures the run never saw. */
  codesMissed: string[];
  /**
   * The failures of the contract an endpoint was seen to answer, as `ENDPOINT_DOCS` lists them
   * (`turns.send 409 api_v1_chat_busy`).
   */
  failures: string[];
}

/** The outcome of a conformance run: one result per check run, in order. */
export interface ConformanceReport {
  /** The service's base URL. */
  url: string;
  /** Every check run. */
  results: CheckResult[];
  /** How many checks passed, failed, warned, were skipped. */
  counts: Record<Outcome, number>;
  /** What of the contract the run exercised. */
  coverage: Coverage;
  /** How many requests the run sent. */
  requests: number;
  /** How long it took, in milliseconds. */
  durationMs: number;
  /** True when no check failed (warnings do not count): the exit status 0 of `convo-conformance`. */
  ok: boolean;
}
