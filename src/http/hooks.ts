import type { ConvoError } from '../errors.js';
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

/** Runs before each retry the SDK makes, with what `onRetry` gets: the error, the attempt, the delay. */
export type BeforeRetryHook = (state: RetryInfo) => void;

/** Runs on each error of an HTTP exchange, before the SDK acts on it; a returned error replaces it. */
export type BeforeErrorHook = (state: { error: ConvoError }) => ConvoError | undefined;

/**
 * Integrator hooks, named as in ky. `beforeRequest` and `afterResponse` are ky's own and see every `Request`
 * and `Response` (the stream's too); `beforeRetry` and `beforeError` follow the SDK's retries and errors.
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

/** `onRetry` followed by the `beforeRetry` hooks, as one callback. */
export function withBeforeRetry(
  onRetry: ((info: RetryInfo) => void) | undefined,
  hooks: BeforeRetryHook[] | undefined,
): ((info: RetryInfo) => void) | undefined {
  if (!hooks?.length) return onRetry;
  return (info) => {
    onRetry?.(info);
    for (const hook of hooks) hook(info);
  };
}

/** `error` passed through the `beforeError` hooks. */
export function runBeforeError(error: ConvoError, hooks: BeforeErrorHook[] | undefined): ConvoError {
  let current = error;
  for (const hook of hooks ?? []) current = hook({ error: current }) ?? current;
  return current;
}
