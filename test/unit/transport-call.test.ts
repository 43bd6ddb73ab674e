import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ApiError,
  Client,
  type ClientOptions,
  ResponseTooLargeError,
  ResponseValidationError,
  ValidationError,
} from '../../src/index.js';
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

describe('what a call sends', () => {
  it('the query of its defined values only', async () => {
    const { fetch, requests } = fakeFetch(ok([], { page: 1, size: 5, total: 0 }));
    const c = client(fetch);
    // Only the URL matters here: the page the fake answers is not the one asked for.
    await c.skills.list({ page: 2, size: undefined }).catch(() => {});
    await c.skills.list({ page: undefined }).catch(() => {});
    expect(requests.map((r) => r.url)).toEqual([
      'https://api.test/api/v1/skills?page=2',
      'https://api.test/api/v1/skills?page=1',
    ]);
  });

  it('a base URL with or without its trailing slash, with a path prefix, is the same API root', async () => {
    const urls: string[] = [];
    for (const baseUrl of [
      'https://api.test',
      'https://api.test/',
      'https://api.test/p',
      'https://api.test/p/',
    ]) {
      const { fetch, requests } = fakeFetch(ok(skill()));
      await client(fetch, { baseUrl }).skills.get(1);
      urls.push(requests[0]?.url ?? '');
    }
    expect(urls).toEqual([
      'https://api.test/api/v1/skills/1',
      'https://api.test/api/v1/skills/1',
      'https://api.test/p/api/v1/skills/1',
      'https://api.test/p/api/v1/skills/1',
    ]);
  });

  it('Accept: JSON for a call, text/event-stream for a stream; Content-Type only with a body', async () => {
    const { fetch, requests } = fakeFetch(ok(skill()));
    await client(fetch).skills.get(1);
    await client(fetch).skills.create({ name: 'n', instructions: 'i' });
    const stream = fakeFetch(sseResponse(sseText(turnEvents(['Hi']))));
    await client(stream.fetch).turns.stream(CHAT, { content: 'Hi' }).finalTurn();
    const sent = [...requests, ...stream.requests].map((r) => [
      r.headers.get('accept'),
      r.headers.get('content-type'),
    ]);
    expect(sent).toEqual([
      ['application/json', null],
      ['application/json', 'application/json'],
      ['text/event-stream', 'application/json'],
    ]);
  });

  it('a header value that would split the request is a ValidationError naming where it came from', async () => {
    const { fetch, requests } = fakeFetch(ok(skill()));
    const c = client(fetch);
    const extra = await c.skills.get(1, { headers: { 'x-a': 'a\r\nb' } }).catch((e: unknown) => e);
    expect(extra).toBeInstanceOf(ValidationError);
    expect((extra as ValidationError).field).toMatch(/^headers/);
    const key = await c.turns
      .send(CHAT, { content: 'Hi' }, { idempotencyKey: 'a\r\nb' })
      .catch((e: unknown) => e);
    expect(key).toBeInstanceOf(ValidationError);
    expect((key as ValidationError).field).toMatch(/^idempotencyKey/);
    expect(requests).toHaveLength(0);
  });

  it('a request’s maxResponseBytes alone bounds its body', async () => {
    const { fetch } = fakeFetch(ok(skill({ description: 'x'.repeat(500) })));
    const error = await client(fetch)
      .skills.get(1, { maxResponseBytes: 100 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
  });

  it('a logger without debug is fine; an answer that is no envelope names no path', async () => {
    const { fetch } = fakeFetch(Response.json({ nothing: 'here' }));
    const error = await client(fetch, { logger: { warn: () => {} } })
      .skills.get(1)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).path).not.toMatch(/^[A-Z]/);
    expect((error as ResponseValidationError).path.startsWith('data')).toBe(false);
  });

  it('only a 404 names the URL it tried: another error of a fresh client does not', async () => {
    const { fetch } = fakeFetch(fail(409, 'api_v1_conflict'));
    const error = await client(fetch)
      .skills.get(1)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as Error).message).not.toContain('https://api.test');
  });
});
