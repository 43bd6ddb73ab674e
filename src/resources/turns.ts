import { LIMITS } from '../contract/limits.js';
import { type Turn, TurnSchema, type TurnSend, TurnSendSchema } from '../contract/turn.js';
import { ConvoError } from '../errors.js';
import { newIdempotencyKey } from '../http/idempotency.js';
import type { RequestOptions } from '../http/transport.js';
import { sendKeyed, turnRepeatable } from '../http/turn-retry.js';
import { checkInput } from '../validate.js';
import { chatPath } from './chats.js';
import { Resource } from './resource.js';

/** Options of a turn call: a request's options and the turn's `Idempotency-Key`. */
export interface TurnOptions extends RequestOptions {
  /** The key that makes the turn idempotent; a random UUID when absent. Persist it to read the outcome later. */
  idempotencyKey?: string;
}

/** A turn as `send` returns it, with the key it was sent under. */
export type SentTurn = Turn & {
  /** The `Idempotency-Key` this turn was sent with: sending it again returns the same turn. */
  readonly idempotencyKey: string;
};

/** A synchronous send waits past the service's own 30-minute cut, so the service's 504 is what ends it. */
const SYNC_TIMEOUT_MS = LIMITS.syncTurnMaxMs + 60_000;

/** `client.turns`: sending turns (4.3). */
export class Turns extends Resource {
  /**
   * Sends a turn and waits for the whole answer (`permission_mode` is always `auto` on this channel).
   * Repeats, with the same key, exactly what the contract says is safe; polls while the key's turn runs.
   * Every error it throws carries `idempotencyKey`.
   */
  async send(chatId: string, body: TurnSend, options: TurnOptions = {}): Promise<SentTurn> {
    const path = `chats/${chatPath(chatId)}/messages`;
    checkInput(TurnSendSchema, body);
    const key = options.idempotencyKey ?? newIdempotencyKey();
    const timeout = options.timeout ?? SYNC_TIMEOUT_MS;
    const deadline = Date.now() + timeout;
    const settings = this.transport.retrySettings(options);
    const call = {
      method: 'POST',
      path,
      body: { ...body, permission_mode: 'auto' },
      schema: TurnSchema,
      retry: turnRepeatable,
      headers: { 'idempotency-key': key },
      options: { ...options, timeout },
    } as const;
    try {
      const { data } = await sendKeyed(() => this.transport.attempt(call), {
        deadline,
        settings,
        signal: options.signal,
      });
      return { ...data, idempotencyKey: key };
    } catch (error) {
      if (error instanceof ConvoError) error.idempotencyKey = key;
      throw error;
    }
  }
}
