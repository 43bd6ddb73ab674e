import type { Turn } from '../contract/turn.js';
import { stillRunning } from '../http/keyed.js';
import { isTurnInProgress } from '../http/policy.js';
import type { Call, Result, Transport } from '../http/transport.js';
import { TurnCall } from './call.js';
import { SETTLE_MS, type TurnOptions } from './open.js';

/** A turn as `send` returns it, with the key it was sent under. */
export type SentTurn = Turn & {
  /** The `Idempotency-Key` this turn was sent with: sending it again returns the same turn. */
  readonly idempotencyKey: string;
};

/**
 * Sends a turn and waits for the whole answer (`permission_mode` is always `auto` on this channel).
 * Repeats, with the same key, exactly what the contract says is safe; polls while the key's turn runs.
 * Every error it throws says where the turn is (key and chat). `send` is the endpoint's prepared call.
 */
export async function sendTurn(
  transport: Transport,
  send: Call<Turn>,
  chatId: string,
  options: TurnOptions,
): Promise<Result<SentTurn>> {
  const call = new TurnCall(chatId, options.idempotencyKey);
  // A synchronous send waits past the service's own 30-minute cut, so the service's 504 is what ends it.
  const timeout = options.timeout ?? SETTLE_MS;
  const request = {
    ...send,
    body: { ...(send.body as object), permission_mode: 'auto' },
    headers: call.headers,
    options: { ...options, timeout },
  };
  try {
    const { data, meta, response } = await transport.request(request, { deadline: Date.now() + timeout });
    return { data: { ...data, idempotencyKey: call.idempotencyKey }, meta, response };
  } catch (error) {
    throw call.stamp(isTurnInProgress(error) ? stillRunning(timeout, error) : error);
  }
}
