import { type ApiError, ConflictError, ConvoError } from './base.js';

/** The interaction's 110 s ran out before it was answered; nothing was sent. */
export class InteractionExpiredError extends ConvoError {
  override name = 'InteractionExpiredError';
}

/**
 * An answer whose outcome cannot be known (7.5): a send got no response (a lost connection, a timeout, a
 * gateway's bare failure), and the resend found the interaction no longer pending (409
 * `api_v1_action_not_pending`). The lost send may have applied, or the interaction closed without it (the
 * turn was cancelled or failed meanwhile). The turn says which: read its stream to the end, or list the
 * chat's messages. It is the resend's 409 (`status`, `code`, `requestId`, `headers`), with the lost send's
 * error as `cause`; `turns.run` follows the stream after it, as after any answer that may have applied.
 */
export class AnswerOutcomeUnknownError extends ConflictError<'api_v1_action_not_pending'> {
  override name = 'AnswerOutcomeUnknownError';

  /** @internal Made by the answer endpoints from the resend's 409 and the lost send's error. */
  constructor(conflict: ApiError, lost: unknown) {
    super({
      status: conflict.status,
      code: 'api_v1_action_not_pending',
      message:
        "the outcome of this answer is unknown: a send got no response and the resend found the interaction no longer pending; the turn says whether it applied (read its stream to the end, or list the chat's messages)",
      data: conflict.data,
      requestId: conflict.requestId,
      errorDetails: conflict.errorDetails,
      retryAfterMs: conflict.retryAfterMs,
      headers: conflict.headers,
    });
    this.cause = lost;
  }
}
