import pRetry from 'p-retry';
import { MAX_TIMER_MS } from '../contract/limits.js';
import { AbortError, ApiError, type ConvoError } from '../errors/index.js';
import type { AttemptRule } from './keyed.js';
import { type OperationKind, POLICY, reactionTo } from './policy.js';

/** What `onRetry` is told before each new attempt. */
export interface RetryInfo {
  /** The error of the attempt that failed. */
  error: ConvoError;
  /** Number of the attempt that failed, from 1. */
  attempt: number;
  /** Milliseconds until the next attempt. */
  delayMs: number;
}

/** The retry settings of a client (its options, else `CLIENT_DEFAULTS`), with a request's own overrides applied. */
export interface RetrySettings {
  /** Further attempts after the first; polls of a running turn do not count. */
  maxRetries: number;
  /** First backoff delay in ms. */
  minDelayMs: number;
  /** Largest backoff delay in ms. */
  maxDelayMs: number;
  /** Longest `Retry-After` honoured, in ms; a longer one ends the call at once. */
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
  /** The run re-opens a stream after its n-th break: it first waits the n-th backoff. */
  resumed?: number | undefined;
  /** The keyed-call rule of the run (`keyed.ts`): what each failed attempt means after the ones before. */
  rule?: AttemptRule | undefined;
}

/** The one backoff as p-retry waits it: from `minDelayMs`, doubling, times 1 to 2 at random, up to `maxDelayMs`. */
function backoffOptions(settings: RetrySettings) {
  return { factor: 2, minTimeout: settings.minDelayMs, maxTimeout: settings.maxDelayMs, randomize: true };
}

/**
 * The `attempt`-th wait of that backoff, p-retry's formula, for the one wait p-retry does not run: before a
 * stream's re-open, which follows a break in a body read, not a failed attempt.
 */
export function backoff(
  attempt: number,
  settings: Pick<RetrySettings, 'minDelayMs' | 'maxDelayMs'>,
  random: number = Math.random(),
): number {
  return Math.min(Math.round((1 + random) * settings.minDelayMs * 2 ** (attempt - 1)), settings.maxDelayMs);
}

/**
 * The wait before repeating after `error`, given p-retry's backoff for it, or `undefined` when the error is
 * thrown now: the service asks for a wait longer than `maxRetryAfterMs` or (but for a poll) than the call's
 * time left (`started + timeoutMs`), or the wait would end past the scope's deadline. A `Retry-After` longer
 * than the backoff replaces it; a shorter one is no reason to wait less.
 */
export function nextWait(
  error: unknown,
  backoffMs: number,
  polling: boolean,
  scope: RetryScope,
  started: number,
  now: number,
): number | undefined {
  const { settings } = scope;
  const asked = error instanceof ApiError ? error.retryAfterMs : undefined;
  const wait = Math.max(backoffMs, asked ?? 0);
  if (asked !== undefined) {
    if (asked > Math.min(settings.maxRetryAfterMs, MAX_TIMER_MS)) return undefined;
    // A poll is bounded by its deadline alone: the call's timeout is the time of one request there.
    if (!polling && now + wait > started + settings.timeoutMs) return undefined;
  }
  if (scope.deadline !== undefined && now + wait > scope.deadline) return undefined;
  return wait;
}

/**
 * Runs `attempt` until it succeeds or the policy stops. p-retry runs the loop with its own count
 * (`retries`: `maxRetries`), backoff (`factor`, `minTimeout`, `maxTimeout`, `randomize`), waits and
 * `signal`; `shouldRetry` is the policy table's answer. Three parts stay ours, as p-retry cannot do them
 * (p-retry 9, index.js `onAttemptFailure`): it waits only its backoff, so the longer part of a `Retry-After`
 * is waited in `shouldRetry`, which also refuses one longer than `maxRetryAfter` or the time left; its
 * `maxRetryTime` shortens the last wait and sends once more at the limit, where an answer would be past
 * its interaction's deadline, so a wait that ends past the deadline ends the run instead; and it throws
 * once `retries` are consumed whatever `shouldConsumeRetry` says, and repeats an unconsumed failure at once,
 * so the polls of a running turn (7.3: not counted against `maxRetries`, backed off) are an inner p-retry
 * of their own, inside each attempt, with `retries: Infinity` and the deadline as their bound.
 */
export async function retrying<T>(
  attempt: (attemptNumber: number) => Promise<T>,
  scope: RetryScope,
): Promise<T> {
  const { kind, settings, signal, rule } = scope;
  let attempts = 0;
  let started = 0;
  // Only a run with a rule waits on each attempt in a frame of its own: the others hand it straight to p-retry.
  const once = rule
    ? async () => {
        try {
          return await attempt(++attempts);
        } catch (error) {
          throw rule(error);
        }
      }
    : () => attempt(++attempts);
  // The outer loop answers `retry` and `read-outcome`, the inner one `poll`.
  const loop = (input: () => Promise<T>, polling: boolean, retries: number) =>
    pRetry(input, {
      ...backoffOptions(settings),
      retries,
      signal,
      shouldRetry: async ({ error, retryDelay }) => {
        const reaction = reactionTo(kind, error);
        if (reaction === 'never' || (reaction === 'poll') !== polling) return false;
        const wait = nextWait(error, retryDelay, polling, scope, started, Date.now());
        if (wait === undefined) return false;
        settings.onRetry?.({ error: error as ConvoError, attempt: attempts, delayMs: wait });
        if (wait > retryDelay) await sleep(wait - retryDelay, signal);
        return true;
      },
    });
  const polled = Object.values(POLICY[kind]).includes('poll')
    ? () => loop(once, true, Number.POSITIVE_INFINITY)
    : once;
  try {
    if (scope.resumed) await sleep(backoff(scope.resumed, settings), signal);
    started = Date.now();
    return await loop(polled, false, settings.maxRetries);
  } catch (error) {
    if (signal?.aborted && !(error instanceof AbortError)) {
      throw new AbortError('the request was aborted by its signal', { cause: signal.reason });
    }
    throw error;
  }
}

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
