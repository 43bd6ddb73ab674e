import pRetry from 'p-retry';
import { AbortError, ApiError, ConnectionError, type ConvoError, TimeoutError } from '../errors.js';

/** Decides whether a failed attempt may be repeated, per the contract (never by status alone). */
export type RetryRule = (error: ConvoError) => boolean;

/** An outage whose request never left (`retry_action: retry`): repeating it is safe (7, 7.5). */
export const outageNeverLeft: RetryRule = (error) =>
  error instanceof ApiError && error.errorDetails?.retry_action === 'retry';

/** For reads and other repeatable calls: no response at all, or an outage that never left. */
export const repeatable: RetryRule = (error) =>
  error instanceof ConnectionError || error instanceof TimeoutError || outageNeverLeft(error);

/** What `onRetry` is told before each new attempt. */
export interface RetryInfo {
  /** The error of the attempt that failed. */
  error: ConvoError;
  /** Number of the attempt that failed, from 1. */
  attempt: number;
  /** Milliseconds until the next attempt. */
  delayMs: number;
}

/** The retry settings of a client. */
export interface RetrySettings {
  /** Further attempts after the first (default 2). */
  maxRetries: number;
  /** First backoff delay in ms (default 500). */
  minDelayMs: number;
  /** Largest backoff delay in ms (default 8000). */
  maxDelayMs: number;
  /** Called before each retry. */
  onRetry: ((info: RetryInfo) => void) | undefined;
}

/**
 * Runs `attempt` until it succeeds, `rule` refuses the error, the retries run out, or `until` (epoch ms)
 * passes; waits with backoff between attempts.
 */
export async function withRetries<T>(
  attempt: (attemptNumber: number) => Promise<T>,
  rule: RetryRule,
  settings: RetrySettings,
  signal: AbortSignal | undefined,
  until?: number,
): Promise<T> {
  if (settings.maxRetries <= 0) return attempt(1);
  try {
    return await pRetry(attempt, {
      retries: settings.maxRetries,
      minTimeout: settings.minDelayMs,
      maxTimeout: settings.maxDelayMs,
      randomize: true,
      ...(signal ? { signal } : {}),
      ...(until === undefined ? {} : { maxRetryTime: Math.max(0, until - Date.now()) }),
      shouldRetry: ({ error }) => rule(error as ConvoError),
      onFailedAttempt: async ({ error, attemptNumber, retryDelay, retriesLeft }) => {
        if (retriesLeft === 0 || !rule(error as ConvoError)) return;
        // Honour Retry-After where it asks for more than the backoff gives.
        const asked = error instanceof ApiError ? (error.retryAfterMs ?? 0) : 0;
        const extra = Math.max(0, asked - retryDelay);
        settings.onRetry?.({
          error: error as ConvoError,
          attempt: attemptNumber,
          delayMs: retryDelay + extra,
        });
        if (extra > 0) await sleep(extra, signal);
      },
    });
  } catch (error) {
    if (signal?.aborted && !(error instanceof AbortError)) {
      throw new AbortError('the request was aborted by its signal', { cause: signal.reason });
    }
    throw error;
  }
}

/** Waits `ms`, or rejects with an `AbortError` when `signal` aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new AbortError('aborted while waiting to retry'));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new AbortError('aborted while waiting to retry'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
