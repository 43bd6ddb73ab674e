import { LIMITS } from '../../contract/limits.js';
import { type Step, StepSchema, ToolCallSchema } from '../../contract/turn.js';
import type {
  FakeModel,
  InteractionAction,
  InteractionAnswer,
  ModelAction,
  ModelInput,
} from '../model/model.js';
import { checkedOutput, checkedPayload } from '../model/model-checks.js';
import type { ChatRecord, InteractionRecord, TurnErrorRecord, TurnRecord } from '../state/records.js';
import type { CredentialRecord, MockStore } from '../state/store.js';
import { pause } from '../time/clock.js';
import { EventLog } from './event-log.js';
import { negativeAnswer, newActionId } from './interactions.js';
import { startEvent, terminalEvent, turnFailure } from './outcomes.js';
import { sourcesOf, usageOf } from './turn-accounting.js';

/** Everything a turn starts from, checked by the send endpoints: what the model sees, and the rest. */
export interface TurnStart
  extends Pick<ModelInput, 'content' | 'permission_mode' | 'channel' | 'model_id' | 'attachments'> {
  /** The integrator's metadata: stored and echoed, never shown to the model (4.3). */
  metadata: Record<string, unknown> | null;
  /** Who sends it. */
  credential: CredentialRecord;
  /** Its chat (already stored). */
  chat: ChatRecord;
  /** Its `Idempotency-Key`. */
  key: string;
  /** `request_id` of the starting request (its `message.start`). */
  request_id: string;
}

/** A running turn: its record (updated as it goes) and its events. */
export interface LiveTurn {
  /** The stored turn; `pending` until it finishes. */
  readonly turn: TurnRecord;
  /** Its events, `message.start` first, the terminal event last. */
  readonly log: EventLog;
  /** Settles once the turn is saved and its terminal event logged. */
  readonly finished: Promise<void>;
  /**
   * Set when the turn failed with `idempotency_outcome_unknown`: what the request that started it sees
   * instead of the stored outcome, which a repeat with the same key reads (6). Read after `finished`.
   */
  readonly outcomeUnknown: TurnErrorRecord | undefined;
}

/** Why the engine stopped a turn. */
type StopReason = 'cancel' | 'timeout' | 'reset';

class Stop extends Error {
  constructor(readonly reason: StopReason) {
    super(`turn stopped: ${reason}`);
  }
}

class Failed extends Error {
  constructor(readonly failure: TurnErrorRecord) {
    super(failure.message);
  }
}

interface Live extends LiveTurn {
  readonly controller: AbortController;
  readonly startedAt: number;
  outcomeUnknown: TurnErrorRecord | undefined;
}

/**
 * Runs turns, each independently of the request that started it (4.4): a turn goes on when its client
 * goes away, is saved, then logs its one terminal event (6, rule 1). The model is read action by action;
 * cancellation, the synchronous deadline and a reset stop it between actions, whatever it is awaiting.
 */
export class TurnEngine {
  readonly #store: MockStore;
  readonly #model: () => FakeModel;
  readonly #live = new Map<number, Live>();
  readonly #waiters = new Map<string, (answer: InteractionAnswer) => void>();

  /** `model` is read at each turn's start, so that `setModel` applies to the next turn. */
  constructor(store: MockStore, model: () => FakeModel) {
    this.#store = store;
    this.#model = model;
  }

  /** Stores a new turn and starts running it. */
  start(start: TurnStart): LiveTurn {
    const store = this.#store;
    const now = store.clock.now();
    const turn: TurnRecord = {
      id: store.nextId('turn'),
      chat_id: start.chat.id,
      role: 'assistant',
      content: '',
      prompt: start.content,
      status: 'pending',
      usage: null,
      steps: [],
      sources: sourcesOf(store, start.attachments),
      anonymization: null,
      metadata: start.metadata,
      created_at: new Date(now).toISOString(),
      error: null,
      credential_id: start.credential.id,
      key: start.key,
      channel: start.channel,
      permission_mode: start.permission_mode,
      model_id: start.model_id,
      request_id: start.request_id,
    };
    store.addTurn(turn);
    start.chat.updated_at = turn.created_at;

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
    this.#settle(interaction, 'resolved', answer);
  }

  /** Closes a pending interaction without the client's answer (7.5): the turn goes on as if refused. */
  close(interaction: InteractionRecord): void {
    this.#settle(interaction, 'closed', negativeAnswer(interaction, 'service'));
  }

  /** Stops every running turn without saving anything more (the store is being emptied). */
  reset(): void {
    const running = [...this.#live.values()];
    this.#live.clear();
    this.#waiters.clear();
    for (const live of running) {
      live.controller.abort('reset' satisfies StopReason);
      // Streams still reading it end without a terminal event, as if the connection closed.
      live.log.close();
    }
  }

  #settle(
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
    let status: 'completed' | 'cancelled' | 'error' = 'completed';
    let failure: TurnErrorRecord | undefined;
    try {
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
      for (;;) {
        const next = await untilStopped(iterator.next(reply), signal);
        if (next.done) break;
        reply = await this.#apply(live, start, next.value);
      }
    } catch (error) {
      if (error instanceof Stop && error.reason === 'reset') return;
      if (error instanceof Stop && error.reason === 'cancel') status = 'cancelled';
      else {
        status = 'error';
        failure =
          error instanceof Failed
            ? error.failure
            : error instanceof Stop
              ? turnFailure(
                  'turn_timeout',
                  'The turn exceeded its maximum duration.',
                  false,
                  start.request_id,
                )
              : turnFailure(
                  'upstream_error',
                  `The mock model failed: ${error instanceof Error ? error.message : String(error)}`,
                  false,
                  start.request_id,
                );
      }
      // Let a generator run its `finally` blocks; it may be awaiting, so do not wait for it.
      iterator?.return?.().catch(() => {});
    } finally {
      deadline.abort();
    }
    this.#finish(live, status, failure);
  }

  /** Applies one action; returns what goes back to the model (an interaction's answer). */
  async #apply(live: Live, start: TurnStart, action: ModelAction): Promise<InteractionAnswer | undefined> {
    const { turn, log } = live;
    const { signal } = live.controller;
    switch (action.type) {
      case 'text':
        if (action.text === '') return undefined;
        turn.content += action.text;
        log.push({ event: 'message.delta', data: { text: action.text, replace: false } });
        return undefined;
      case 'replace':
        turn.content = action.text;
        log.push({ event: 'message.delta', data: { text: action.text, replace: true } });
        return undefined;
      case 'step':
        this.#step(live, { ...this.#reasoning(live), ...action.step });
        return undefined;
      case 'tool': {
        const tool = checkedOutput(ToolCallSchema, action.tool, 'tool');
        this.#step(live, {
          key: 'tool',
          label: `Running ${tool.name}`,
          label_code: 'tool_call',
          status: 'completed',
          timestamp: this.#store.timestamp(),
          duration: 0,
          tool_calls: [structuredClone(tool)],
        });
        return undefined;
      }
      case 'interaction':
        // 4.3: the synchronous channel cannot answer; the turn is cut.
        if (start.channel === 'sync') {
          throw new Failed(
            turnFailure(
              'interaction_in_auto_mode',
              `The turn asked for an interaction (${action.kind}); use the streaming send.`,
              false,
              start.request_id,
            ),
          );
        }
        return this.#ask(live, start, action);
      case 'fail':
        throw new Failed(
          turnFailure(
            action.code,
            action.message ?? `The turn failed (${action.code}).`,
            action.retryable ?? false,
            start.request_id,
          ),
        );
      case 'wait':
        await pause(this.#store.clock, action.ms, signal);
        if (signal.aborted) throw new Stop(signal.reason as StopReason);
        return undefined;
      default:
        throw new Error(`unknown action ${JSON.stringify(action)}`);
    }
  }

  #reasoning(live: Live): Step {
    const now = this.#store.clock.now();
    return {
      key: 'reasoning',
      label: 'Thinking',
      label_code: 'reasoning',
      status: 'completed',
      timestamp: new Date(now).toISOString(),
      duration: Math.max(0, Math.round(now - live.startedAt)),
    };
  }

  #step(live: Live, step: unknown): void {
    const valid = checkedOutput(StepSchema, step, 'step');
    live.turn.steps.push(valid);
    live.log.push({ event: 'message.step', data: { steps: [structuredClone(valid)] } });
  }

  /** Raises an interaction and waits for its answer, its expiry, or the turn's end. */
  async #ask(live: Live, start: TurnStart, action: InteractionAction): Promise<InteractionAnswer> {
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
        const onStop = () => reject(new Stop(signal.reason as StopReason));
        if (signal.aborted) return onStop();
        signal.addEventListener('abort', onStop, { once: true });
        expiry.signal.addEventListener('abort', () => signal.removeEventListener('abort', onStop));
        // Unanswered at expiry: the turn goes on as if refused (negativeAnswer).
        void pause(store.clock, store.settings.interactionTtlMs, expiry.signal).then(() => {
          if (!expiry.signal.aborted)
            this.#settle(interaction, 'expired', negativeAnswer(interaction, 'expiry'));
        });
      });
    } finally {
      expiry.abort();
      this.#waiters.delete(interaction.action_id);
    }
  }

  /**
   * Saves the turn, then logs its terminal event: the order rule 1 of section 6 demands. An
   * `idempotency_outcome_unknown` failure is not the stored outcome: "another execution closed this turn"
   * (6), so the turn is saved as completed with what it produced, and only this delivery reports the code.
   */
  #finish(
    live: Live,
    status: 'completed' | 'cancelled' | 'error',
    failure: TurnErrorRecord | undefined,
  ): void {
    const store = this.#store;
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
    if (chat) chat.updated_at = store.timestamp();
    for (const interaction of store.interactionsById.values()) {
      if (interaction.turn_id === turn.id && interaction.state === 'pending') interaction.state = 'closed';
    }
    if (this.#live.get(turn.id) === live) this.#live.delete(turn.id);
    live.log.push(terminalEvent(turn, live.outcomeUnknown ?? turn.error));
    live.log.close();
  }
}

// Rejects with Stop as soon as the turn is stopped, whatever `promise` is waiting for.
function untilStopped<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new Stop(signal.reason as StopReason));
  return new Promise<T>((resolve, reject) => {
    const onStop = () => reject(new Stop(signal.reason as StopReason));
    signal.addEventListener('abort', onStop, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onStop));
  });
}
