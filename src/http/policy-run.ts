import pRetry from 'p-retry';
import { MAX_TIMER_MS } from '../contract/limits.js';
import { AbortError, ApiError, type ConvoError } from '../errors/index.js';
import { type OperationKind, reactionTo } from './policy.js';

/** What `onRetry` is told before each new attempt. */
export interface RetryInfo {
  /** The error of the attempt that failed. */
  error: ConvoError;
  /** Number of the attempt that failed, from 1. */
  attempt: number;
  /** Milliseconds until the next attempt. */
  delayMs: number;
}

/** The retry settings of a client, with a request's own overrides applied. */
export interface RetrySettings {
  /** Further attempts after the first (default 2); polls of a running turn do not count. */
  maxRetries: number;
  /** First backoff delay in ms (default 500). */
  minDelayMs: number;
  /** Largest backoff delay in ms (default 8000). */
  maxDelayMs: number;
  /** Longest `Retry-After` honoured, in ms (default 60,000); a longer one ends the call at once. */
  maxRetryAfterMs: number;
  /** The call's `timeout` in ms: a `Retry-After` wait ends within it, counted from the first attempt. */
  timeoutMs: number;
  /** Called before each retry. */
  onRetry: ((info: RetryInfo) => void) | undefined;
}

/** One run of the policy: what the operation is and what bounds its waits. */
export interface RetryScope {
  kind: OperationKind;
  settings: RetrySettings;
  signal: AbortSignal | undefined;
  /** No wait ends after this (epoch ms): an interaction's deadline, the end of polling a running turn. */
  deadline?: number | undefined;
}

/** The one backoff: exponential from `minDelayMs`, up to twice that with jitter, never above `maxDelayMs`. */
export function backoff(
  attempt: number,
  settings: Pick<RetrySettings, 'minDelayMs' | 'maxDelayMs'>,
  random: number = Math.random(),
): number {
  return Math.min(settings.maxDelayMs, settings.minDelayMs * 2 ** (attempt - 1) * (1 + random));
}

/** How many repeats a run has made so far: retries count against `maxRetries`, polls do not. */
export interface RetryCount {
  retries: number;
  polls: number;
}

/**
 * How long to wait before repeating after `error`, or `undefined` when it is thrown now: the policy says
 * never, the retries ran out, the service asks for a wait longer than `maxRetryAfterMs` or (but for a poll)
 * than the call's time left (`started + timeoutMs`), or the wait would end past the scope's deadline.
 */
export function nextWait(
  error: unknown,
  count: RetryCount,
  scope: RetryScope,
  started: number,
  now: number,
): number | undefined {
  const reaction = reactionTo(scope.kind, error);
  if (reaction === 'never') return undefined;
  const polling = reaction === 'poll';
  const { settings } = scope;
  if (!polling && count.retries >= settings.maxRetries) return undefined;
  const asked = error instanceof ApiError ? error.retryAfterMs : undefined;
  const wait = Math.max(backoff(polling ? count.polls + 1 : count.retries + 1, settings), asked ?? 0);
  if (asked !== undefined) {
    if (asked > Math.min(settings.maxRetryAfterMs, MAX_TIMER_MS)) return undefined;
    // A poll is bounded by its deadline alone: the call's timeout is the time of one request there.
    if (!polling && now + wait > started + settings.timeoutMs) return undefined;
  }
  if (scope.deadline !== undefined && now + wait > scope.deadline) return undefined;
  return wait;
}

/**
 * Runs `attempt` until it succeeds or the policy stops: p-retry runs the loop, the waits are the policy's
 * (`nextWait`), taken only when another attempt follows, and an abort during one ends it at once.
 */
export async function retrying<T>(
  attempt: (attemptNumber: number) => Promise<T>,
  scope: RetryScope,
): Promise<T> {
  const { signal, settings } = scope;
  const count: RetryCount = { retries: 0, polls: 0 };
  const started = Date.now();
  let wait: number | undefined;
  try {
    return await pRetry(attempt, {
      // p-retry neither counts nor waits: polls must not use up maxRetries, and every wait is bounded here.
      retries: Number.POSITIVE_INFINITY,
      minTimeout: 0,
      ...(signal ? { signal } : {}),
      onFailedAttempt: async ({ error, attemptNumber }) => {
        wait = nextWait(error, count, scope, started, Date.now());
        if (wait === undefined) return;
        if (reactionTo(scope.kind, error) === 'poll') count.polls++;
        else count.retries++;
        settings.onRetry?.({ error: error as ConvoError, attempt: attemptNumber, delayMs: wait });
        await sleep(wait, signal);
      },
      shouldRetry: () => wait !== undefined,
    });
  } catch (error) {
    if (signal?.aborted && !(error instanceof AbortError)) {
      throw new AbortError('the request was aborted by its signal', { cause: signal.reason });
    }
    throw error;
  }
}

/** Waits `ms`, or rejects with an `AbortError` as soon as `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const aborted = () => new AbortError('aborted while waiting to retry', { cause: signal?.reason });
    if (signal?.aborted) return reject(aborted());
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(aborted());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
