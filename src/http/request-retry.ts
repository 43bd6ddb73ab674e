import type { RequestOptions } from './call.js';
import { withBeforeRetry } from './hooks.js';
import type { RetrySettings } from './policy-run.js';
import { checkOption } from './validate.js';

/**
 * The client's retry settings `retry`, with a request's own `maxRetries`, `maxRetryAfter`, `timeout` and
 * `beforeRetry` hooks applied: `retry` itself when it has none. Every call asks for them before it sends
 * anything, so this is where a request's numeric options are checked: one out of its range throws a
 * `ValidationError`.
 */
export function requestRetry(retry: RetrySettings, options: RequestOptions | undefined): RetrySettings {
  if (!options) return retry;
  checkOption('timeout', options.timeout);
  checkOption('maxRetries', options.maxRetries);
  checkOption('maxRetryAfter', options.maxRetryAfter);
  checkOption('maxResponseBytes', options.maxResponseBytes);
  const hooks = options.hooks?.beforeRetry;
  // The client's own settings, not a copy, where the request overrides none: no allocation on the hot path.
  if (
    options.maxRetries === undefined &&
    options.maxRetryAfter === undefined &&
    options.timeout === undefined &&
    !hooks?.length
  )
    return retry;
  return {
    ...retry,
    maxRetries: options.maxRetries ?? retry.maxRetries,
    maxRetryAfterMs: options.maxRetryAfter ?? retry.maxRetryAfterMs,
    timeoutMs: options.timeout ?? retry.timeoutMs,
    onRetry: withBeforeRetry(retry.onRetry, hooks),
  };
}
