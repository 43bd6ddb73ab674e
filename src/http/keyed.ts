import { AnswerOutcomeUnknownError, ApiError, TimeoutError } from '../errors/index.js';
import { failureOf, type OperationKind } from './policy.js';

/**
 * The rules of a call whose attempts are one operation at the service, beyond what one failure says (the
 * policy table): a turn under its key (7.3) and an interaction answer, which resolves once (3.3, 7.5).
 */

/** What a failed attempt means after the attempts before it: the error the run goes on with. */
export type AttemptRule = (error: unknown) => unknown;

/** Where a rule says what it decided: the transport's logger. */
type Warn = { warn?: ((message: string, fields?: Record<string, unknown>) => void) | undefined } | undefined;

/**
 * Whether an interaction may be resolved after its answer failed this way: no response of the service came
 * back even to the resends (a lost connection, a timeout, a gateway's bare failure), or the service says
 * the outcome is unknown or already settled (7.5). The turn's stream then says what happened, so a handler
 * loop follows it rather than cancelling the turn.
 */
export function answerMayHaveApplied(error: unknown): boolean {
  const failure = failureOf(error);
  return (
    failure === 'connection' || failure === 'timeout' || failure === 'gateway' || failure === 'check_status'
  );
}

/** The rule of one call of `kind` (fresh for each call), or `undefined` when its attempts need none. */
export function attemptRule(kind: OperationKind, logger: Warn, path: string): AttemptRule | undefined {
  return kind === 'answer' ? lostAnswer(logger, path) : undefined;
}

/**
 * 7.5: a 409 `api_v1_action_not_pending` to a resend of an answer whose earlier send got no response cannot
 * say whether that send applied ("already resolved, another request claimed it first, or outcome
 * unknown"): it is an `AnswerOutcomeUnknownError` (the first lost send's error as `cause`), never a success.
 * A first send's 409 is thrown as it came.
 */
function lostAnswer(logger: Warn, path: string): AttemptRule {
  /** The error of the first send that got no response: it may have applied. */
  let lost: { error: unknown } | undefined;
  return (error) => {
    if (lost && error instanceof ApiError && error.is('api_v1_action_not_pending')) {
      logger?.warn?.('the outcome of an answer is unknown: its send was lost', { path });
      return new AnswerOutcomeUnknownError(error, lost.error);
    }
    // Of the failures that may have applied, only these are resent: no response came back.
    if (!lost && answerMayHaveApplied(error)) lost = { error };
    return error;
  };
}

/**
 * How a keyed turn's synchronous send ends when its key's turn still ran at the call's timeout (polling
 * ends there, 7.3): a `TimeoutError` that says how to read the outcome, not the service's refusal.
 */
export function stillRunning(timeout: number, error: ApiError): TimeoutError {
  return new TimeoutError(
    `the turn still ran after ${timeout} ms: send again with the same key (idempotencyKey) to read its outcome`,
    { cause: error },
  );
}
