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
