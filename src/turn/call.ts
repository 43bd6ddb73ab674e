import { ConvoError } from '../errors/index.js';
import { newIdempotencyKey } from '../http/idempotency.js';

/**
 * One keyed turn call from start to end: its key (the only place the `Idempotency-Key` header is set),
 * what is known of the turn so far, and the one place its errors are stamped with where to find it.
 */
export class TurnCall {
  /** The chat the turn is sent to. */
  readonly chatId: string;
  /** The key of every request of this turn: re-sending it reads the turn's stored outcome. */
  readonly idempotencyKey: string;
  /** The headers of every request of this turn. */
  readonly headers: Readonly<Record<string, string>>;
  /** The turn's id, once `message.start` said it. */
  messageId: number | undefined;
  /** Whether the turn was sent: from then on it may run at the service. */
  sent = false;
  /**
   * Whether nothing of the turn is left to cancel: a reader of this call (the stream, or any branch of its
   * `tee()`) read the terminal event, or the send was refused before the turn started (7.4). A cancel
   * without `action_id` could then only reach another turn of the chat (4.6).
   */
  ended = false;

  constructor(chatId: string, idempotencyKey: string | undefined) {
    this.chatId = chatId;
    this.idempotencyKey = idempotencyKey ?? newIdempotencyKey();
    this.headers = { 'idempotency-key': this.idempotencyKey };
  }

  /** Stamps an error of this call with the key, the chat and the message id (what it has not got yet). */
  stamp<E>(error: E): E {
    if (error instanceof ConvoError) {
      error.idempotencyKey ??= this.idempotencyKey;
      error.chatId ??= this.chatId;
      if (this.messageId !== undefined) error.messageId ??= this.messageId;
    }
    return error;
  }
}
