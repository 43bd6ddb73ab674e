import { describe, expect, it, vi } from 'vitest';
import { requestRetry } from '../../src/http/request-retry.js';
import { ConnectionError, ValidationError } from '../../src/index.js';
import { SETTINGS } from '../support/retry-scope.js';

/** A request's own retry options over the client's (`http/request-retry.ts`). */
describe("a request's retry settings", () => {
  it("are the client's own, not a copy, when the request overrides none of them", () => {
    expect(requestRetry(SETTINGS, undefined)).toBe(SETTINGS);
    expect(requestRetry(SETTINGS, { signal: new AbortController().signal, headers: { a: 'b' } })).toBe(
      SETTINGS,
    );
    expect(requestRetry(SETTINGS, { maxResponseBytes: 10, hooks: { beforeRetry: [] } })).toBe(SETTINGS);
  });

  it("take the request's maxRetries, maxRetryAfter and timeout over the client's", () => {
    expect(requestRetry(SETTINGS, { maxRetries: 0 })).toEqual({ ...SETTINGS, maxRetries: 0 });
    expect(requestRetry(SETTINGS, { maxRetryAfter: 0 })).toEqual({ ...SETTINGS, maxRetryAfterMs: 0 });
    expect(requestRetry(SETTINGS, { timeout: 5 })).toEqual({ ...SETTINGS, timeoutMs: 5 });
  });

  it("run the request's beforeRetry hooks after the client's onRetry", () => {
    const order: string[] = [];
    const client = { ...SETTINGS, onRetry: () => order.push('client') };
    const hook = vi.fn(() => {
      order.push('request');
    });
    const settings = requestRetry(client, { hooks: { beforeRetry: [hook] } });
    expect(settings).not.toBe(client);
    settings.onRetry?.({ error: new ConnectionError('lost'), attempt: 1, delayMs: 5 });
    expect(order).toEqual(['client', 'request']);
  });

  it('check each numeric option first: one out of its range is a ValidationError naming it', () => {
    for (const [name, options] of [
      ['timeout', { timeout: 0 }],
      ['maxRetries', { maxRetries: 11 }],
      ['maxRetryAfter', { maxRetryAfter: -1 }],
      ['maxResponseBytes', { maxResponseBytes: 0 }],
    ] as const) {
      const error = (() => {
        try {
          requestRetry(SETTINGS, options);
        } catch (e) {
          return e;
        }
      })();
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).message).toContain(name);
    }
  });
});
