import { ConvoError } from './base.js';

/** Why a connection was given up on; each is recovered by re-sending the key. */
export class StreamBreak extends ConvoError {
  override name = 'StreamBreak';
}

/**
 * A terminal event that cannot be read: the turn ended, but how is unknown. Not a broken connection (a
 * re-read would send the same event again): the stream ends with this error, which carries the key to
 * read the turn later.
 */
export class UnreadableTerminalError extends ConvoError {
  override name = 'UnreadableTerminalError';
  /** The wire name of the terminal event. */
  readonly event: string;

  constructor(event: string, problem: string) {
    super(`the terminal event ${event} could not be read (${problem}); read the turn with its key`);
    this.event = event;
  }
}

/**
 * A streamed turn (or a relay) delivered more than `maxTurnBytes`: reading stopped there, before the text
 * could outgrow memory. Not a broken connection (a re-open would deliver the same bytes again), and not a
 * cancel: the turn runs on at the service, and its key (`idempotencyKey`) or `messageId` reads its outcome.
 */
export class TurnTooLargeError extends ConvoError {
  override name = 'TurnTooLargeError';
  /** The bound crossed, in bytes (the `maxTurnBytes` the stream was read with). */
  readonly limit: number;

  constructor(limit: number) {
    super(
      `the turn's stream passed maxTurnBytes (${limit} bytes): reading stopped; the turn is not cancelled, read its outcome with its key`,
    );
    this.limit = limit;
  }
}
