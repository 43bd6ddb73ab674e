import { touchChat } from '../state/chat-records.js';
import type { TurnErrorRecord } from '../state/records.js';
import type { MockStore } from '../state/store.js';
import type { Live } from './live.js';
import { terminalEvent } from './outcomes.js';
import { usageOf } from './turn-accounting.js';

/** How a turn ended. */
export type FinalStatus = 'completed' | 'cancelled' | 'error';

/**
 * Saves the turn, then logs its terminal event: the order rule 1 of section 6 demands. An
 * `idempotency_outcome_unknown` failure is not the stored outcome: "another execution closed this turn"
 * (6), so the turn is saved as completed with what it produced, and only this delivery reports the code.
 * Its interactions still pending are closed.
 */
export function finishTurn(
  store: MockStore,
  live: Live,
  status: FinalStatus,
  failure: TurnErrorRecord | undefined,
): void {
  const { turn } = live;
  if (failure?.code === 'idempotency_outcome_unknown') {
    live.outcomeUnknown = failure;
    status = 'completed';
    failure = undefined;
  }
  turn.status = status;
  turn.error = failure ?? null;
  turn.usage = turn.content === '' ? null : usageOf(store, turn);
  const chat = store.chatsById.get(turn.chat_id);
  if (chat) touchChat(store, chat);
  for (const interaction of store.interactionsById.values()) {
    if (interaction.turn_id === turn.id && interaction.state === 'pending') interaction.state = 'closed';
  }
  live.log.push(terminalEvent(turn, live.outcomeUnknown ?? turn.error));
  live.log.close();
}
