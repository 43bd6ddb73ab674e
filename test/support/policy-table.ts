import type { Failure, OperationKind, Reaction } from '../../src/http/policy.js';
import { POLICY } from '../../src/http/policy.js';

/** The column heading in docs/client.md ("What is retried") of each operation kind, in column order. */
export const KIND_LABELS: Record<OperationKind, string> = {
  repeatable: 'reads, skill and chat updates',
  write: 'create, toggle, delete',
  turn: 'turns (send, stream open and re-open), same key',
  answer: 'interaction answers, until the deadline',
  cancel: 'cancel',
};

/** The row heading in docs/client.md ("What is retried") of each failure, in row order. */
export const FAILURE_LABELS: Record<Failure, string> = {
  connection: 'connection lost, no response',
  timeout: 'no response within `timeout`',
  rate_limited: '429 (the request was not processed)',
  outage_503: '503 with `retry_action: retry`',
  outage_other: 'another status with `retry_action: retry` (a turn: 502, 504)',
  gateway:
    "408, 502, 503, 504 without the contract's error body (a proxy's or load balancer's: none, text, HTML, problem details)",
  in_progress: '409 `api_v1_turn_in_progress`',
  outcome_stored: '409 `api_v1_core_unavailable` (`idempotency_outcome_unknown`), 503 `persistence_failed`',
  backend_down: '503 `api_v1_interaction_backend_unavailable`',
  undelivered: '502 `api_v1_core_unavailable`',
  check_status:
    '`retry_action: check_status`, 409 `api_v1_action_not_pending`, `api_v1_action_result_unknown`',
  other:
    'anything else: other 4xx and 5xx (a bare 500 too, problem details included), a response off the contract or too large, bad input',
};

const REACTION_TEXT: Record<Reaction, string> = {
  retry: 'retried',
  poll: 'polled',
  'read-outcome': 'read the stored outcome',
  never: 'no',
};

/** The "What is retried" table as the policy says it, in Markdown. */
export function renderPolicyTable(): string {
  const kinds = Object.keys(KIND_LABELS) as OperationKind[];
  const failures = Object.keys(FAILURE_LABELS) as Failure[];
  const row = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [
    row(['failure', ...kinds.map((kind) => KIND_LABELS[kind])]),
    row(['---', ...kinds.map(() => '---')]),
    ...failures.map((failure) =>
      row([FAILURE_LABELS[failure], ...kinds.map((kind) => REACTION_TEXT[POLICY[kind][failure] ?? 'never'])]),
    ),
  ].join('\n');
}
