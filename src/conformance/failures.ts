import { ENDPOINT_DOCS, type FailureDoc } from '../contract/endpoint-docs.js';
import { ENDPOINT_NAMES, type EndpointName } from '../contract/endpoints.js';
import type { CheckResult } from './types.js';

/** A failure an endpoint can answer, as `ENDPOINT_DOCS` lists it: `turns.send 409 api_v1_chat_busy`. */
export type FailureKey = `${EndpointName} ${number} ${string}`;

/** The key of `failure` of `endpoint`. */
export const failureKey = (
  endpoint: EndpointName,
  failure: Pick<FailureDoc, 'status' | 'code'>,
): FailureKey => `${endpoint} ${failure.status} ${failure.code}`;

/**
 * The failures of the contract (not the mock's readings of its gaps) that `ENDPOINT_DOCS` lists per
 * endpoint: each is exercised by a check (its `exercises`) or is in `NOT_EXERCISED` (a test keeps the three
 * in step).
 */
export function contractFailures(): Map<FailureKey, FailureDoc> {
  const failures = new Map<FailureKey, FailureDoc>();
  for (const endpoint of ENDPOINT_NAMES) {
    for (const failure of ENDPOINT_DOCS[endpoint].failures as readonly FailureDoc[]) {
      if (failure.source === 'contract') failures.set(failureKey(endpoint, failure), failure);
    }
  }
  return failures;
}

const SCRIPTED = 'needs a scripted model';
const ASKS = `${SCRIPTED}: a turn that asks, and the decision answered by the conversation service`;
const OUTAGE = 'needs an outage of the service behind it';

/** The failures of the contract no check exercises, each with why: a scripted model, an outage, a limit not given. */
export const NOT_EXERCISED: Readonly<Partial<Record<FailureKey, string>>> = {
  'turns.send 409 api_v1_turn_in_progress': `${SCRIPTED}: a synchronous turn still running when its key is sent again`,
  'turns.send 409 api_v1_core_unavailable': `${SCRIPTED}: another execution that closed the turn (idempotency_outcome_unknown)`,
  'turns.send 422 api_v1_too_many_attachments': 'the spec does not give the attachment limit (8)',
  'turns.send 502 upstream_error': `${SCRIPTED}: a turn that fails downstream`,
  'turns.send 502 interaction_in_auto_mode': `${SCRIPTED}: a synchronous turn that asks for an interaction`,
  'turns.send 503 api_v1_core_unavailable': `${SCRIPTED}: a turn whose save is not confirmed (persistence_failed)`,
  'turns.send 504 turn_timeout': `${SCRIPTED}: a turn over 30 minutes`,
  'turns.cancel 502 api_v1_core_unavailable': `${OUTAGE}: a cancellation that cannot be delivered`,
  ...answerFailures(),
};

function answerFailures(): Partial<Record<FailureKey, string>> {
  const reasons: Record<string, string> = {
    '409 api_v1_action_not_pending': `${SCRIPTED}: a turn that asks, answered twice`,
    '409 api_v1_action_result_unknown': ASKS,
    '503 api_v1_service_unavailable': `${OUTAGE}: a decision that never left`,
    '503 api_v1_action_result_unknown': `${OUTAGE}: a decision that left with no answer`,
    '503 api_v1_interaction_backend_unavailable': `${OUTAGE}: interactions that cannot be resolved`,
  };
  const entries: Partial<Record<FailureKey, string>> = {};
  for (const endpoint of [
    'actions.approveTool',
    'actions.respondPlan',
    'actions.respondElicitation',
    'actions.cancelAuth',
  ] as const) {
    for (const [failure, reason] of Object.entries(reasons))
      entries[`${endpoint} ${failure}` as FailureKey] = reason;
  }
  return entries;
}

/**
 * The report's lines for the failures no check exercises: one per section, code and reason, naming the
 * endpoints (`POST /api/v1/chats/{chat_id}/messages`) it applies to by their name in the table.
 */
export function notExercised(
  failures: ReadonlyMap<FailureKey, FailureDoc> = contractFailures(),
): Array<Omit<CheckResult, 'outcome'>> {
  const lines = new Map<
    string,
    { section: string; code: string; status: number; reason: string; endpoints: string[] }
  >();
  for (const [key, reason] of Object.entries(NOT_EXERCISED) as Array<[FailureKey, string]>) {
    const failure = failures.get(key);
    if (!failure) continue;
    const endpoint = key.slice(0, key.indexOf(' '));
    const line = `${failure.section} ${failure.status} ${failure.code} ${reason}`;
    const entry = lines.get(line);
    if (entry) entry.endpoints.push(endpoint);
    else lines.set(line, { ...failure, reason, endpoints: [endpoint] });
  }
  return [...lines.values()].map(({ section, status, code, reason, endpoints }) => ({
    section,
    title: `${status} ${code} (${endpoints.join(', ')})`,
    reason,
  }));
}
