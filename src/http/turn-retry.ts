import { ApiError, ConnectionError, type ConvoError, TimeoutError } from '../errors.js';
import { outageNeverLeft, type RetryRule, type RetrySettings, sleep, withRetries } from './retry.js';

/**
 * Failures of a keyed turn that repeating with the same key makes safe and useful (4.3, 7.3): no response
 * at all, a 503 outage whose request never left, and the two answers that say "repeat with the same key to
 * read the outcome". Everything else (400, 403, 404, chat busy, key conflict, 422, 502, 504) is thrown as it
 * came: a 502 or 504 is the key's stored outcome, and repeating the key would only replay it, whatever
 * `retry_action` its details carry.
 */
export const turnRepeatable: RetryRule = (error) =>
  error instanceof ConnectionError ||
  error instanceof TimeoutError ||
  (error instanceof ApiError && error.status === 503 && outageNeverLeft(error)) ||
  readsStoredOutcome(error);

function readsStoredOutcome(error: ConvoError): boolean {
  if (!(error instanceof ApiError) || error.code !== 'api_v1_core_unavailable') return false;
  const code = (error.data as { code?: unknown } | null | undefined)?.code;
  return (
    (error.status === 409 && code === 'idempotency_outcome_unknown') ||
    (error.status === 503 && code === 'persistence_failed')
  );
}

/** 409 `api_v1_turn_in_progress`: the key's turn still runs. */
export function isTurnInProgress(error: unknown): error is ApiError {
  return error instanceof ApiError && error.code === 'api_v1_turn_in_progress';
}

/**
 * Repeats `send` while the key's turn is still running, with backoff (and `Retry-After`), until it settles
 * or `deadline` (epoch ms) would pass; then the last 409 is thrown. Polls do not use up `maxRetries`.
 */
export async function untilSettled<T>(
  send: () => Promise<T>,
  deadline: number,
  settings: RetrySettings,
  signal: AbortSignal | undefined,
): Promise<T> {
  for (
    let attempt = 1, delay = settings.minDelayMs;
    ;
    attempt++, delay = Math.min(delay * 2, settings.maxDelayMs)
  ) {
    try {
      return await send();
    } catch (error) {
      if (!isTurnInProgress(error)) throw error;
      const wait = Math.max(delay * (1 + Math.random()), error.retryAfterMs ?? 0);
      if (Date.now() + wait > deadline) throw error;
      settings.onRetry?.({ error, attempt, delayMs: wait });
      await sleep(wait, signal);
    }
  }
}

/** How a keyed turn request is repeated. */
export interface KeyedSettings {
  /** When polling a running turn stops (epoch ms). */
  deadline: number;
  settings: RetrySettings;
  signal: AbortSignal | undefined;
}

/** Sends a keyed turn request: repeats what the key makes safe, polls while the key's turn runs. */
export function sendKeyed<T>(
  send: () => Promise<T>,
  { deadline, settings, signal }: KeyedSettings,
): Promise<T> {
  return withRetries(() => untilSettled(send, deadline, settings, signal), turnRepeatable, settings, signal);
}
