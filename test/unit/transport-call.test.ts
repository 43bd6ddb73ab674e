import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, Client, type ClientOptions } from '../../src/index.js';
import { fail, fakeFetch, ok, skill } from '../support/fake-fetch.js';
import { CHAT, sseResponse, sseText, turnEvents } from '../support/sse.js';

/**
 * What the transport (`http/transport.ts`) makes of a request's own options before anything is sent (each
 * one alone overrides the client's), the line it logs per exchange, and the 404 hint it gives until a call
 * of the client succeeded.
 */

function client(fetch: ClientOptions['fetch'], options: Partial<ClientOptions> = {}) {
  return new Client({
    baseUrl: 'https://api.test',
    token: 't',
    fetch,
    retryDelay: { min: 1, max: 2 },
    ...options,
  });
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("a request's own retry options, each alone", () => {
  it('7 maxRetries alone: a request may retry where its client may not', async () => {
    const { fetch, requests } = fakeFetch(new TypeError('fetch failed'), ok(skill()));
    await expect(client(fetch, { maxRetries: 0 }).skills.get(1, { maxRetries: 1 })).resolves.toMatchObject({
      id: 1,
    });
    expect(requests).toHaveLength(2);
  });

  it('7 timeout alone bounds a Retry-After wait: one longer than it is thrown at once', async () => {
    const { fetch, requests } = fakeFetch(
      fail(429, 'api_v1_rate_limited', null, { headers: { 'retry-after': '3' } }),
      ok(skill()),
    );
    const error = await client(fetch, { timeout: 60_000 })
      .skills.get(1, { timeout: 1000 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).retryAfterMs).toBe(3000);
    expect(requests).toHaveLength(1);
  });

  it('7 maxRetryAfter alone: a Retry-After above it is thrown at once', async () => {
    const { fetch, requests } = fakeFetch(
      fail(429, 'api_v1_rate_limited', null, { headers: { 'retry-after': '3' } }),
      ok(skill()),
    );
    const error = await client(fetch)
      .skills.get(1, { maxRetryAfter: 1000 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(requests).toHaveLength(1);
  });

  it('5 beforeRetry alone: a request’s hook runs before its retry, after the client’s onRetry', async () => {
    const { fetch } = fakeFetch(new TypeError('fetch failed'), ok(skill()));
    const seen: string[] = [];
    const c = client(fetch, { onRetry: () => void seen.push('onRetry') });
    await c.skills.get(1, {
      hooks: { beforeRetry: [({ attempt }) => void seen.push(`beforeRetry ${attempt}`)] },
    });
    expect(seen).toEqual(['onRetry', 'beforeRetry 1']);
  });

  it('options without any retry override leave the client’s settings as they are', async () => {
    const { fetch, requests } = fakeFetch(new TypeError('fetch failed'), ok(skill()));
    await expect(
      client(fetch, { maxRetries: 1 }).skills.get(1, { headers: { 'x-a': '1' } }),
    ).resolves.toMatchObject({ id: 1 });
    expect(requests).toHaveLength(2);
  });
});

describe('the line each exchange logs', () => {
  it('5 debug: method, path and status, with the status, the attempt and the time it took', async () => {
    vi.spyOn(performance, 'now').mockReturnValue(1000);
    const debug = vi.fn();
    const { fetch } = fakeFetch(new TypeError('fetch failed'), fail(404, 'api_v1_not_found'));
    await client(fetch, { logger: { debug } })
      .skills.get(1)
      .catch(() => {});
    const lines = debug.mock.calls.filter(([message]) => String(message).startsWith('GET /api/v1/'));
    expect(lines[0]).toEqual(['GET /api/v1/skills/1 -> 404', { status: 404, attempt: 2, ms: 0 }]);
  });
});

describe('the 404 hint', () => {
  it('names the URL until a call succeeded, a stream’s open included, and not after', async () => {
    const notFound = () =>
      Response.json(
        {
          status: 'error',
          message: 'gone',
          message_code: 'api_v1_not_found',
          data: null,
          meta: { request_id: 'r' },
        },
        { status: 404 },
      );
    let first = true;
    const fetch = async () => {
      if (first) {
        first = false;
        return sseResponse(sseText(turnEvents(['Hi'])));
      }
      return notFound();
    };
    const fresh = client(fakeFetch(notFound()).fetch);
    const before = await fresh.skills.get(1).catch((e: unknown) => e);
    expect((before as Error).message).toContain('GET https://api.test/api/v1/skills/1');
    const c = client(fetch);
    await c.turns.stream(CHAT, { content: 'Hi' }).finalTurn();
    const after = await c.skills.get(1).catch((e: unknown) => e);
    expect(after).toBeInstanceOf(ApiError);
    expect((after as Error).message).not.toContain('https://api.test');
  });
});
