import type { ErrorDetails } from '../contract/envelope.js';
import type { TurnFailure } from '../contract/events.js';
import { ConvoError } from './base.js';

/** Where a turn can be found later: its chat, its message id once known, and its key. */
export interface TurnLocation {
  /** The chat of the turn. */
  chatId: string;
  /** The turn's id (`message_id` of `message.start`), once the stream said it. */
  messageId: number | undefined;
  /** The key that re-delivers the turn's outcome. */
  idempotencyKey: string;
}

/** The turn failed (`message.error`): `code`, `retryable` and `details` come from the service. */
export class TurnFailedError extends ConvoError {
  override name = 'TurnFailedError';
  /** The turn's error code (`upstream_error`, `turn_timeout`, ...). */
  readonly code: TurnFailure['code'];
  /** True when another operation with a NEW key may work; the same key replays this error. */
  readonly retryable: boolean;
  /** Outage details, when the cause was an outage. */
  readonly details: ErrorDetails | undefined;

  constructor(failure: TurnFailure) {
    super(`turn failed with ${failure.code}: ${failure.message}`);
    this.code = failure.code;
    this.retryable = failure.retryable;
    this.details = failure.details;
  }
}

/** A turn this client sent failed: the failure, and where to find the turn (its key always). */
export class TurnError extends TurnFailedError implements TurnLocation {
  override name = 'TurnError';
  override chatId: string;
  override messageId: number | undefined;
  override idempotencyKey: string;

  constructor(failure: TurnFailure, where: TurnLocation) {
    super(failure);
    this.chatId = where.chatId;
    this.messageId = where.messageId;
    this.idempotencyKey = where.idempotencyKey;
  }
}

/** A relayed turn failed: the relay carries no key, and the chat and message only once `start` came. */
export class RelayedTurnError extends TurnFailedError {
  override name = 'RelayedTurnError';

  constructor(failure: TurnFailure, where: { chatId: string | undefined; messageId: number | undefined }) {
    super(failure);
    if (where.chatId !== undefined) this.chatId = where.chatId;
    if (where.messageId !== undefined) this.messageId = where.messageId;
  }
}

/** The stream broke and recovery through the key gave up; the turn may still finish: find it by key or id. */
export class StreamInterruptedError extends ConvoError implements TurnLocation {
  override name = 'StreamInterruptedError';
  override chatId: string;
  override messageId: number | undefined;
  override idempotencyKey: string;
  /** How many times the stream was re-opened before giving up. */
  readonly resumes: number;

  constructor(message: string, where: TurnLocation & { resumes: number; cause: unknown }) {
    super(
      `${message}; the turn may still complete: read it with the same Idempotency-Key or in the message listing`,
      { cause: where.cause },
    );
    this.chatId = where.chatId;
    this.messageId = where.messageId;
    this.idempotencyKey = where.idempotencyKey;
    this.resumes = where.resumes;
  }
}
