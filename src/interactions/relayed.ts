import type { ActionRequiredPayload } from '../contract/events.js';
import { LIMITS } from '../contract/limits.js';
import { type ClassifiedPayload, classify } from './classify.js';

/**
 * An interaction read from a relay (`RelayedTurnStream.fromReadableStream`): its data only, typed by `kind`. It
 * has no answer methods: the server that holds the client answers it (`client.actions` with `action_id`).
 */
export type RelayedInteraction = ClassifiedPayload & {
  /** The opaque id the answer carries. */
  readonly action_id: string;
  /** The chat of the turn that asks, once `message.start` said it. */
  readonly chatId: string | undefined;
  /** When it arrived here (epoch ms). */
  readonly receivedAt: number;
  /** When it expires (epoch ms): 110 s after it arrived. */
  readonly expiresAt: number;
  /** The `message.action_required` payload as it came. */
  readonly raw: ActionRequiredPayload;
};

/** The data of a relayed `message.action_required`. */
export function toRelayedInteraction(
  raw: ActionRequiredPayload,
  chatId: string | undefined,
  receivedAt: number,
): RelayedInteraction {
  return {
    ...classify(raw),
    action_id: raw.action_id,
    chatId,
    receivedAt,
    expiresAt: receivedAt + LIMITS.interactionLifetimeMs,
    raw,
  };
}
