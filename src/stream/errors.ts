import { ConvoError } from '../errors.js';

/** Why a connection was given up on; each is recovered by re-sending the key. */
export class StreamBreak extends ConvoError {
  override name = 'StreamBreak';
}
