import { ConvoError, HookError, type HookName } from '../errors/index.js';
import type { RetryInfo } from './policy-run.js';

/**
 * ky's `beforeRequest`: gets the `Request` about to leave; may change it, or return another `Request`, or a
 * `Response` to answer it without sending. Declared here (ky passes more) so the SDK's types need no ky.
 */
export type BeforeRequestHook = (state: {
  request: Request;
  retryCount: number;
  // biome-ignore lint/suspicious/noConfusingVoidType: a hook that only changes the request returns nothing.
}) => Request | Response | void | Promise<Request | Response | void>;

/** ky's `afterResponse`: gets each `Response` (and its `Request`); may return another `Response` to use. */
export type AfterResponseHook = (state: {
  request: Request;
  response: Response;
  retryCount: number;
  // biome-ignore lint/suspicious/noConfusingVoidType: a hook that only reads the response returns nothing.
}) => Response | void | Promise<Response | void>;

/**
 * Runs before each retry the SDK makes, with what `onRetry` gets: the error, the attempt, the delay. What it
 * returns is ignored.
 */
export type BeforeRetryHook = (state: RetryInfo) => void;

/** Runs on each error of an HTTP exchange, before the SDK acts on it; a returned error replaces it. */
export type BeforeErrorHook = (state: { error: ConvoError }) => ConvoError | undefined;

/**
 * Integrator hooks, named as in ky. `beforeRequest` and `afterResponse` are ky's own and see every `Request`
 * and `Response` (the stream's too); `beforeRetry` and `beforeError` follow the SDK's retries and errors.
 * They run inside the call's bounds: its `signal` and `timeout` end a hook still pending (`AbortError`,
 * `TimeoutError`); a hook that throws, or returns what its type does not allow, fails the call with a
 * `HookError` (never retried). `beforeRetry` and `beforeError` are synchronous: a promise they return is not
 * awaited.
 */
export interface Hooks {
  /** ky's `beforeRequest`: change the `Request` before it leaves (a tracing header), or answer it yourself. */
  beforeRequest?: BeforeRequestHook[] | undefined;
  /** ky's `afterResponse`: read each `Response`, or return another one (such as one re-sent after a 401). */
  afterResponse?: AfterResponseHook[] | undefined;
  /** Before each retry, after `onRetry`. */
  beforeRetry?: BeforeRetryHook[] | undefined;
  /** On each failed exchange; may return a replacement `ConvoError`. */
  beforeError?: BeforeErrorHook[] | undefined;
}

/** The client's `onRetry` as the SDK calls it: what it throws is a `HookError`, what it returns ignored. */
export function guardOnRetry(
  onRetry: ((info: RetryInfo) => void) | undefined,
): ((info: RetryInfo) => void) | undefined {
  return onRetry && ((info) => runSync('onRetry', onRetry, info));
}

/** `first` (already guarded) followed by the `beforeRetry` hooks, as one callback. */
export function withBeforeRetry(
  first: ((info: RetryInfo) => void) | undefined,
  hooks: BeforeRetryHook[] | undefined,
): ((info: RetryInfo) => void) | undefined {
  if (!hooks?.length) return first;
  return (info) => {
    first?.(info);
    for (const hook of hooks) runSync('beforeRetry', hook, info);
  };
}

/**
 * Runs a synchronous callback: what it throws is a `HookError`. A promise it returns is not awaited (the
 * retry goes on), and its rejection is dropped rather than left unhandled.
 */
function runSync(hook: HookName, run: (info: RetryInfo) => unknown, info: RetryInfo): void {
  let result: unknown;
  try {
    result = run(info);
  } catch (error) {
    throw threw(hook, error);
  }
  settleQuietly(result);
}

/**
 * `error` passed through the `beforeError` hooks. A hook that throws, or returns anything but a `ConvoError`
 * or nothing, replaces the error with a `HookError` (what it threw or returned as `cause`), which the next
 * hook sees: a call still fails with a `ConvoError`.
 */
export function runBeforeError(error: ConvoError, hooks: BeforeErrorHook[] | undefined): ConvoError {
  let current = error;
  for (const hook of hooks ?? []) {
    let result: unknown;
    try {
      result = hook({ error: current });
    } catch (thrown) {
      current = threw('beforeError', thrown);
      continue;
    }
    if (result === undefined || result instanceof ConvoError) {
      current = result ?? current;
      continue;
    }
    settleQuietly(result);
    current = refused('beforeError', result, 'a ConvoError');
  }
  return current;
}

/** The `HookError` of a hook that threw `error`. */
export function threw(hook: HookName, error: unknown): HookError {
  const reason = error instanceof Error ? error.message : describe(error);
  return new HookError(hook, `threw: ${reason.slice(0, 200)}`, error);
}

/** The `HookError` of a hook that returned `value`, which it may not: it may return `allowed` or nothing. */
export function refused(hook: HookName, value: unknown, allowed: string): HookError {
  return new HookError(hook, `returned ${describe(value)}: it may return ${allowed} or nothing`, value);
}

/** A value by its type, never its content (a hook's value may hold anything). */
function describe(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (typeof value !== 'object') return `a ${typeof value}`;
  return `an object (${Object.prototype.toString.call(value).slice(8, -1)})`;
}

/** Drops the rejection of a promise nobody awaits. */
function settleQuietly(value: unknown): void {
  if (value instanceof Promise) value.catch(() => {});
}
