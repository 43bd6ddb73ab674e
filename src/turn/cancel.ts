import type { CancelResult } from '../contract/interactions.js';
import { TURN_STATUSES } from '../contract/turn.js';
import type { RequestOptions } from '../http/transport.js';
import type { TurnCall } from './call.js';
import type { TurnControls } from './turn-stream.js';

/** The statuses of a turn that is over (3.2); `pending` and statuses this client does not know may run. */
const ENDED: ReadonlySet<string> = new Set(TURN_STATUSES.filter((status) => status !== 'pending'));

/** The endpoints a turn's cancel goes through (the layer above's). */
export interface CancelEndpoints {
  /** Cancels the chat's running turn. */
  cancel: (chatId: string) => Promise<CancelResult>;
  /** The status of the chat's turn `messageId` (`pending` while it runs); undefined when it is not listed. */
  status: (chatId: string, messageId: number, options: RequestOptions) => Promise<string | undefined>;
}

/**
 * The cancels of one turn call, which share one request. A cancel without `action_id` ends whatever turn
 * the chat runs (4.6): once one was sent, the turn was cancelled or had ended, so a second request could
 * only reach the chat's next turn. Calls made while it is in flight, or after it was answered (by any
 * reader of the call: a `tee()` branch, `cancelOnAbort`), get its outcome; after a failure the next call
 * sends again. `timeout` bounds the look-up of `cancelIfRunning`.
 */
export function turnCancels(
  endpoints: CancelEndpoints,
  call: TurnCall,
  timeout: number | undefined,
): Pick<TurnControls, 'cancel' | 'cancelIfRunning'> {
  let shared: Promise<CancelResult> | undefined;
  const once = (send: () => Promise<CancelResult>): Promise<CancelResult> => {
    if (shared) return shared;
    const sent = Promise.resolve(send());
    shared = sent;
    // Registered first, so it runs before any caller sees the failure: a later call sends again.
    sent.catch(() => {
      shared = undefined;
    });
    return sent;
  };
  return {
    cancel: () => once(() => endpoints.cancel(call.chatId)),
    // One look at the turn before a chat-wide cancel: if it already ended, that would end the next one.
    cancelIfRunning: (messageId) =>
      once(async () => {
        const status = await endpoints.status(call.chatId, messageId, { timeout });
        if (status !== undefined && ENDED.has(status)) return { chat_id: call.chatId, cancelled: false };
        return endpoints.cancel(call.chatId);
      }),
  };
}
