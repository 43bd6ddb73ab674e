import { isRereadCode, REREAD_CODES } from '../contract/codes.js';
import type { OperationKind } from '../contract/endpoints.js';
import { ApiError, ConnectionError, TimeoutError } from '../errors/index.js';
import { isGatewayFailure } from './failures.js';

/**
 * The one retry policy of the SDK: for each kind of operation and each kind of failure, whether the
 * request is sent again and how. The "What is retried" table of docs/client.md is checked against it.
 */

/** What an operation is, for the retry policy: each endpoint's `kind` in `contract/endpoints.ts`. */
export type { OperationKind };

/** What went wrong with one attempt, as far as the policy cares. */
export type Failure =
  | 'connection'
  | 'timeout'
  | 'rate_limited'
  | 'outage_503'
  | 'outage_other'
  /** A bare 408, 502, 503 or 504: a proxy's or load balancer's, without the contract's body. */
  | 'gateway'
  | 'in_progress'
  | 'outcome_stored'
  | 'backend_down'
  | 'undelivered'
  | 'check_status'
  | 'other';

/**
 * How a failure is met: sent again (`retry`, with the same key for a turn), polled while the key's turn
 * runs (`poll`, not counted against `maxRetries`), sent again with the same key to read the outcome the
 * service stored (`read-outcome`), or thrown as it came (`never`).
 */
export type Reaction = 'retry' | 'poll' | 'read-outcome' | 'never';

/**
 * The table; a failure a row does not name is never retried. A 429 was not processed, so every operation
 * repeats it (honouring `Retry-After`). An outage whose request never left (`retry_action: retry`) is safe
 * to repeat (7, 7.5), except a turn's 502 or 504: that is the key's stored outcome, and repeating the key
 * would only replay it. A gateway's bare failure says nothing of whether the request arrived: it is
 * repeated where arriving twice is harmless (a read, a turn under its key, an answer, which resolves once
 * (3.3), a cancel, which is idempotent (4.6)), never for a create. A bare 500 (a gateway's problem details
 * too) says the request arrived and failed there: like every other bare status, it is not repeated.
 */
export const POLICY: Readonly<Record<OperationKind, Readonly<Partial<Record<Failure, Reaction>>>>> = {
  repeatable: {
    connection: 'retry',
    timeout: 'retry',
    rate_limited: 'retry',
    outage_503: 'retry',
    outage_other: 'retry',
    gateway: 'retry',
  },
  write: { rate_limited: 'retry', outage_503: 'retry', outage_other: 'retry' },
  turn: {
    connection: 'retry',
    timeout: 'retry',
    rate_limited: 'retry',
    outage_503: 'retry',
    gateway: 'retry',
    in_progress: 'poll',
    outcome_stored: 'read-outcome',
  },
  answer: {
    connection: 'retry',
    timeout: 'retry',
    rate_limited: 'retry',
    outage_503: 'retry',
    outage_other: 'retry',
    gateway: 'retry',
    backend_down: 'retry',
  },
  cancel: {
    connection: 'retry',
    timeout: 'retry',
    rate_limited: 'retry',
    outage_503: 'retry',
    outage_other: 'retry',
    gateway: 'retry',
    undelivered: 'retry',
  },
};

/** Which failure `error` is; the first row that matches wins. */
export function failureOf(error: unknown): Failure {
  if (error instanceof ConnectionError) return 'connection';
  if (error instanceof TimeoutError) return 'timeout';
  if (!(error instanceof ApiError)) return 'other';
  if (error.status === 429) return 'rate_limited';
  if (isTurnInProgress(error)) return 'in_progress';
  if (storesOutcome(error)) return 'outcome_stored';
  if (error.code === 'api_v1_interaction_backend_unavailable') return 'backend_down';
  const action = error.errorDetails?.retry_action;
  if (
    action === 'check_status' ||
    error.code === 'api_v1_action_not_pending' ||
    error.code === 'api_v1_action_result_unknown'
  )
    return 'check_status';
  if (action === 'retry') return error.status === 503 ? 'outage_503' : 'outage_other';
  if (error.status === 502 && error.code === 'api_v1_core_unavailable') return 'undelivered';
  if (isGatewayFailure(error)) return 'gateway';
  return 'other';
}

/** 409 `api_v1_turn_in_progress`: the key's turn still runs. */
export function isTurnInProgress(error: unknown): error is ApiError {
  return error instanceof ApiError && error.code === 'api_v1_turn_in_progress';
}

/** The two answers of a keyed turn that say "repeat with the same key to read the outcome" (7.3). */
function storesOutcome(error: ApiError): boolean {
  if (error.code !== 'api_v1_core_unavailable') return false;
  const code = (error.data as { code?: unknown } | null | undefined)?.code;
  return isRereadCode(code) && REREAD_CODES[code] === error.status;
}

/** How `kind` meets `error`. */
export function reactionTo(kind: OperationKind, error: unknown): Reaction {
  return POLICY[kind][failureOf(error)] ?? 'never';
}
