import type { ErrorDetails } from '../../contract/envelope.js';
import type { EventName, TerminalEventName } from '../../contract/events.js';
import type { TurnErrorRecord, TurnRecord } from '../state/records.js';
import { publicTurn, turnFields } from '../state/views.js';
import { ApiFailure, success } from '../wire/respond.js';
import type { StreamEvent } from './event-log.js';

/**
 * What a finished turn looks like on each channel: the synchronous answer (7.3), the terminal event and
 * the replay of a key (6). Both channels derive from the stored turn, so that a key first used on one
 * endpoint replays in the other's format with the same outcome.
 */

/** Codes of failures caused by an outage: their `message.error` carries `details` (section 6). */
const OUTAGE_CODES = [
  'upstream_error',
  'persistence_failed',
  'outcome_unknown',
  'idempotency_outcome_unknown',
] as const;

/** The `message.error` of a turn that failed with `code`: `details` for outage codes only. */
export function turnFailure(
  code: string,
  message: string,
  retryable: boolean,
  requestId: string,
): TurnErrorRecord {
  const details = (OUTAGE_CODES as readonly string[]).includes(code)
    ? outageDetails(code, requestId)
    : undefined;
  return { code, message, retryable, ...(details ? { details } : {}) };
}

/**
 * Outage details (section 6 `details`, 7 `meta.error_details`) for a turn code. `retry_action` is always
 * `check_status`: a dispatched turn's error is `retryable: false` (6), and even `upstream_error` may have had
 * effects, so "resend as is" would contradict it.
 */
function outageDetails(code: string, requestId: string): ErrorDetails {
  const unknown = code !== 'upstream_error';
  return {
    schema_version: 1,
    service: 'conversation',
    service_code: code,
    dependency: unknown ? 'conversation-store' : 'model-provider',
    operation: 'turn',
    failure_kind: unknown ? 'outcome_unknown' : 'upstream_failure',
    operation_outcome: unknown ? 'unknown' : 'failed',
    retryable: false,
    retry_action: 'check_status',
    request_id: requestId,
  };
}

/**
 * The synchronous answer for a finished turn (7.3): 200 with the turn when it completed or was cancelled;
 * otherwise the error of its code (`failure`: the stored one, or what the delivering request alone saw):
 * - `turn_timeout` 504, `data: { chat_id, message_id }`;
 * - `persistence_failed` and `outcome_unknown` 503 `api_v1_core_unavailable`, `data: { code }`;
 * - `idempotency_outcome_unknown` 409 `api_v1_core_unavailable`, `data: { code }`;
 * - any other code (`upstream_error`, `interaction_in_auto_mode`, a model's own) 502 with that code as
 *   `message_code`, `data: { chat_id, message_id }`.
 * Outage codes carry `meta.error_details`.
 */
export function syncAnswer(turn: TurnRecord, failure: TurnErrorRecord | null = turn.error): Response {
  if (failure) return syncFailure(turn, failure).toResponse();
  return success(publicTurn(turn), {
    message: turn.status === 'cancelled' ? 'Turn cancelled.' : 'Turn completed.',
  });
}

function syncFailure(turn: TurnRecord, error: TurnErrorRecord): ApiFailure {
  const ids = { chat_id: turn.chat_id, message_id: turn.id };
  switch (error.code) {
    case 'turn_timeout':
      return new ApiFailure(504, 'turn_timeout', error.message, ids, error.details);
    case 'persistence_failed':
    case 'outcome_unknown':
      return new ApiFailure(
        503,
        'api_v1_core_unavailable',
        error.message,
        { code: error.code },
        error.details,
      );
    case 'idempotency_outcome_unknown':
      return new ApiFailure(
        409,
        'api_v1_core_unavailable',
        error.message,
        { code: error.code },
        error.details,
      );
    default:
      return ApiFailure.relayed(502, error.code, error.message, ids, error.details);
  }
}

/** `message.start` of a turn, with the `request_id` of the request that delivers it. */
export function startEvent(turn: TurnRecord, requestId: string): StreamEvent {
  return {
    event: 'message.start',
    data: { chat_id: turn.chat_id, message_id: turn.id, request_id: requestId },
  };
}

/** The one terminal event of a finished turn (6, rule 1): `failure` is the stored error unless given. */
export function terminalEvent(turn: TurnRecord, failure: TurnErrorRecord | null = turn.error): StreamEvent {
  if (failure) {
    const { code, message, retryable, details } = failure;
    return { event: 'message.error', data: { code, message, retryable, ...(details ? { details } : {}) } };
  }
  const event = turn.status === 'cancelled' ? 'message.cancelled' : 'message.completed';
  return { event, data: turnFields(turn) };
}

/** The events a re-delivery rebuilds of one event of the contract from the stored turn: none, one or more. */
type Rebuild = (turn: TurnRecord, requestId: string) => StreamEvent[];

/**
 * How a finished turn is re-delivered as a stream (4.4), by event, in the order sent: `message.start` (same
 * `message_id`), the stored steps as one `message.step`, the content as one `message.delta` when non-empty,
 * then the stored terminal event. A row per event of `EVENTS`: an event added there does not compile until
 * its re-delivery is decided here.
 */
const REPLAY: Readonly<Record<EventName, Rebuild>> = {
  'message.start': (turn, requestId) => [startEvent(turn, requestId)],
  'message.step': (turn) =>
    turn.steps.length > 0 ? [{ event: 'message.step', data: { steps: structuredClone(turn.steps) } }] : [],
  'message.delta': (turn) =>
    turn.content !== '' ? [{ event: 'message.delta', data: { text: turn.content, replace: false } }] : [],
  // A finished turn asks nothing (its answers are in its steps), and a keep-alive is no part of an outcome.
  'message.action_required': () => [],
  ping: () => [],
  'message.completed': storedEnd('message.completed'),
  'message.cancelled': storedEnd('message.cancelled'),
  'message.error': storedEnd('message.error'),
};

/** The row of a terminal event: the stored terminal event when it is this one (exactly one is, 6 rule 1). */
function storedEnd(name: TerminalEventName): Rebuild {
  return (turn) => {
    const end = terminalEvent(turn);
    return end.event === name ? [end] : [];
  };
}

/** A finished turn re-delivered as a stream (4.4): the events `REPLAY` rebuilds, in its order. */
export function replayEvents(turn: TurnRecord, requestId: string): StreamEvent[] {
  return Object.values(REPLAY).flatMap((rebuild) => rebuild(turn, requestId));
}
