import { LIMITS } from '../../contract/limits.js';
import { directiveModel } from '../model/directive-model.js';
import type { FakeModel, InteractionAnswer, ModelAction } from '../model/model.js';
import type { InteractionRecord, TurnErrorRecord } from '../state/records.js';
import type { MockStore } from '../state/store.js';
import { pause } from '../time/clock.js';
import { InteractionDesk } from './asking.js';
import { EventLog } from './event-log.js';
import { type FinalStatus, finishTurn } from './finish.js';
import { negativeAnswer } from './interactions.js';
import {
  Failed,
  type Live,
  type LiveTurn,
  Stop,
  type StopReason,
  type TurnStart,
  untilStopped,
} from './live.js';
import { applyAction } from './model-actions.js';
import { startEvent, turnFailure } from './outcomes.js';
import { slicer } from './slices.js';
import { storeNewTurn } from './turn-record.js';

/**
 * Runs turns, each independently of the request that started it (4.4): a turn goes on when its client
 * goes away, is saved, then logs its one terminal event (6, rule 1). The model is read action by action;
 * cancellation, the synchronous deadline and a reset stop it between actions, whatever it is awaiting.
 * Its jobs are units of their own: the record (turn-record.ts), the model's actions (model-actions.ts),
 * the interactions (asking.ts), the finishing (finish.ts) and sharing the event loop (slices.ts).
 */
export class TurnEngine {
  readonly #store: MockStore;
  readonly #model: () => FakeModel;
  readonly #live = new Map<number, Live>();
  readonly #desk: InteractionDesk;

  /** `model` is read at each turn's start, so that `setModel` applies to the next turn. */
  constructor(store: MockStore, model: () => FakeModel) {
    this.#store = store;
    this.#model = model;
    this.#desk = new InteractionDesk(store);
  }

  /** Whether the next turn runs the directive model, whose parameters the sends check (`scriptIssues`). */
  usesDirectives(): boolean {
    return this.#model() === directiveModel;
  }

  /** Stores a new turn and starts running it. */
  start(start: TurnStart): LiveTurn {
    const now = this.#store.clock.now();
    const turn = storeNewTurn(this.#store, start, now);
    const log = new EventLog();
    log.push(startEvent(turn, start.request_id));
    let settle = () => {};
    const finished = new Promise<void>((resolve) => {
      settle = resolve;
    });
    const live: Live = {
      turn,
      log,
      finished,
      controller: new AbortController(),
      startedAt: now,
      outcomeUnknown: undefined,
    };
    this.#live.set(turn.id, live);
    void this.#run(live, start).finally(settle);
    return live;
  }

  /** The running turn of `chatId`, if any (one at a time, 3.4). */
  runningIn(chatId: string): LiveTurn | undefined {
    for (const live of this.#live.values()) if (live.turn.chat_id === chatId) return live;
    return undefined;
  }

  /** Cancels a running turn: it ends `cancelled` with what it produced so far. False when not running. */
  cancel(turnId: number): boolean {
    const live = this.#live.get(turnId);
    if (!live) return false;
    live.controller.abort('cancel' satisfies StopReason);
    return true;
  }

  /** Resolves a pending interaction with the client's answer; its turn goes on. */
  resolve(interaction: InteractionRecord, answer: InteractionAnswer): void {
    this.#desk.settle(interaction, 'resolved', answer);
  }

  /** Closes a pending interaction without the client's answer (7.5): the turn goes on as if refused. */
  close(interaction: InteractionRecord): void {
    this.#desk.settle(interaction, 'closed', negativeAnswer(interaction, 'service'));
  }

  /** Stops every running turn without saving anything more (the store is being emptied). */
  reset(): void {
    const running = [...this.#live.values()];
    this.#live.clear();
    this.#desk.clear();
    for (const live of running) {
      live.controller.abort('reset' satisfies StopReason);
      // Streams still reading it end without a terminal event, as if the connection closed.
      live.log.close();
    }
  }

  async #run(live: Live, start: TurnStart): Promise<void> {
    const { signal } = live.controller;
    const deadline = new AbortController();
    if (start.channel === 'sync') {
      // 4.3: the service cuts a synchronous turn off after 30 minutes (504 turn_timeout).
      void pause(this.#store.clock, LIMITS.syncTurnMaxMs, deadline.signal).then(() => {
        if (!deadline.signal.aborted) live.controller.abort('timeout' satisfies StopReason);
      });
    }
    let iterator: AsyncIterator<ModelAction, unknown, InteractionAnswer | undefined> | undefined;
    let status: FinalStatus = 'completed';
    let failure: TurnErrorRecord | undefined;
    try {
      // 4.3: `metadata` is never sent to the model.
      iterator = this.#model()({
        chat_id: start.chat.id,
        message_id: live.turn.id,
        content: start.content,
        permission_mode: start.permission_mode,
        channel: start.channel,
        model_id: start.model_id,
        attachments: structuredClone(start.attachments),
        signal,
      })[Symbol.asyncIterator]();
      let reply: InteractionAnswer | undefined;
      const slice = slicer();
      for (;;) {
        const next = await untilStopped(iterator.next(reply), signal);
        if (next.done) break;
        reply = await applyAction(this.#store, this.#desk, live, start, next.value);
        // However many actions a turn has, other requests get their turn every few ms.
        await slice();
      }
    } catch (error) {
      if (error instanceof Stop && error.reason === 'reset') return;
      if (error instanceof Stop && error.reason === 'cancel') status = 'cancelled';
      else {
        status = 'error';
        failure = failureOf(error, start.request_id);
      }
      // Let a generator run its `finally` blocks; it may be awaiting, so do not wait for it.
      iterator?.return?.().catch(() => {});
    } finally {
      deadline.abort();
    }
    // The chat is free before the terminal event is seen.
    if (this.#live.get(live.turn.id) === live) this.#live.delete(live.turn.id);
    finishTurn(this.#store, live, status, failure);
  }
}

// What stopped a turn that did not finish nor get cancelled: its own failure, the deadline, or the model.
function failureOf(error: unknown, requestId: string): TurnErrorRecord {
  if (error instanceof Failed) return error.failure;
  if (error instanceof Stop) {
    return turnFailure('turn_timeout', 'The turn exceeded its maximum duration.', false, requestId);
  }
  const reason = error instanceof Error ? error.message : String(error);
  return turnFailure('upstream_error', `The mock model failed: ${reason}`, false, requestId);
}
