import type { InteractionAction, InteractionAnswer } from '../model/model.js';
import { checkedPayload } from '../model/model-checks.js';
import type { InteractionRecord } from '../state/records.js';
import type { MockStore } from '../state/store.js';
import { pause } from '../time/clock.js';
import { negativeAnswer, newActionId } from './interactions.js';
import { type Live, stopOf, type TurnStart } from './live.js';

/**
 * The interactions of running turns: raising one, waiting for its answer, its expiry or the turn's end,
 * and settling it once (3.3).
 */
export class InteractionDesk {
  readonly #store: MockStore;
  readonly #waiters = new Map<string, (answer: InteractionAnswer) => void>();

  constructor(store: MockStore) {
    this.#store = store;
  }

  /** Raises an interaction of `live` and waits for its answer, its expiry, or the turn's end. */
  async ask(live: Live, start: TurnStart, action: InteractionAction): Promise<InteractionAnswer> {
    const store = this.#store;
    const { signal } = live.controller;
    const payload = checkedPayload(action);
    const now = store.clock.now();
    const interaction: InteractionRecord = {
      action_id: newActionId(),
      kind: action.kind,
      payload,
      ...(action.kind === 'auth_required'
        ? { resolution: action.resolution ?? 'connect_in_ui_or_cancel' }
        : {}),
      turn_id: live.turn.id,
      chat_id: live.turn.chat_id,
      credential_id: start.credential.id,
      created_at: new Date(now).toISOString(),
      expires_at_ms: now + store.settings.interactionTtlMs,
      state: 'pending',
      answer: null,
    };
    store.addInteraction(interaction);
    live.log.push({
      event: 'message.action_required',
      data: {
        kind: interaction.kind,
        action_id: interaction.action_id,
        payload: structuredClone(payload),
        ...(interaction.resolution ? { resolution: interaction.resolution } : {}),
      },
    });

    const expiry = new AbortController();
    try {
      return await new Promise<InteractionAnswer>((resolve, reject) => {
        this.#waiters.set(interaction.action_id, resolve);
        const onStop = () => reject(stopOf(signal));
        if (signal.aborted) return onStop();
        signal.addEventListener('abort', onStop, { once: true });
        expiry.signal.addEventListener('abort', () => signal.removeEventListener('abort', onStop));
        // Unanswered at expiry: the turn goes on as if refused (negativeAnswer).
        void pause(store.clock, store.settings.interactionTtlMs, expiry.signal).then(() => {
          if (!expiry.signal.aborted)
            this.settle(interaction, 'expired', negativeAnswer(interaction, 'expiry'));
        });
      });
    } finally {
      expiry.abort();
      this.#waiters.delete(interaction.action_id);
    }
  }

  /** Ends a pending interaction with `answer`, waking its turn; nothing when it is no longer pending. */
  settle(
    interaction: InteractionRecord,
    state: 'resolved' | 'closed' | 'expired',
    answer: InteractionAnswer,
  ) {
    if (interaction.state !== 'pending') return;
    interaction.state = state;
    interaction.answer = answer;
    const wake = this.#waiters.get(interaction.action_id);
    this.#waiters.delete(interaction.action_id);
    wake?.(answer);
  }

  /** Forgets every waiting turn (the store is being emptied). */
  clear(): void {
    this.#waiters.clear();
  }
}
