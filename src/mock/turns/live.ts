import type { ModelInput } from '../model/model.js';
import type { ChatRecord, TurnErrorRecord, TurnRecord } from '../state/records.js';
import type { CredentialRecord } from '../state/store.js';
import type { EventLog } from './event-log.js';

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

/** A running turn as the engine's units see it: how to stop it, and since when it runs. */
export interface Live extends LiveTurn {
  readonly controller: AbortController;
  readonly startedAt: number;
  outcomeUnknown: TurnErrorRecord | undefined;
}

/** Why the engine stopped a turn. */
export type StopReason = 'cancel' | 'timeout' | 'reset';

/** Thrown into a turn's run when it is stopped, whatever it was awaiting. */
export class Stop extends Error {
  constructor(readonly reason: StopReason) {
    super(`turn stopped: ${reason}`);
  }
}

/** Thrown into a turn's run when it fails with a turn code. */
export class Failed extends Error {
  constructor(readonly failure: TurnErrorRecord) {
    super(failure.message);
  }
}

/** The `Stop` of an aborted turn signal. */
export function stopOf(signal: AbortSignal): Stop {
  return new Stop(signal.reason as StopReason);
}

/** Rejects with `Stop` as soon as the turn is stopped, whatever `promise` is waiting for. */
export function untilStopped<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(stopOf(signal));
  return new Promise<T>((resolve, reject) => {
    const onStop = () => reject(stopOf(signal));
    signal.addEventListener('abort', onStop, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onStop));
  });
}
