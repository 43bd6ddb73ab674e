import type { RetryScope, RetrySettings } from '../../src/http/policy-run.js';

/** The client's default retry settings: tests that use them wait the real waits. */
export const SETTINGS: RetrySettings = {
  maxRetries: 2,
  minDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
  timeoutMs: 60_000,
  onRetry: undefined,
};

/** A `read` scope with the default settings, `over` and `settings` applied. */
export const scope = (over: Partial<RetryScope> = {}, settings: Partial<RetrySettings> = {}): RetryScope => ({
  kind: 'repeatable',
  signal: undefined,
  settings: { ...SETTINGS, ...settings },
  ...over,
});
