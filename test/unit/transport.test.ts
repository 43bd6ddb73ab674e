import { describe, expect, it, vi } from 'vitest';
import {
  AbortError,
  ApiError,
  Client,
  ConnectionError,
  ResponseValidationError,
  TimeoutError,
} from '../../src/index.js';
import { fail, fakeFetch, ok, skill } from '../support/fake-fetch.js';
import { CHAT, sseText, turnEvents } from '../support/sse.js';

const fast = { retryDelay: { min: 1, max: 5 } };

function client(fetch: ReturnType<typeof fakeFetch>['fetch'], extra = {}) {
  return new Client({ baseUrl: 'https://api.test', token: 'secret-token', fetch, ...fast, ...extra });
}

describe('transport', () => {
  it('5 every request carries Authorization: Bearer <token> and asks for JSON', async () => {
    const { fetch, requests } = fakeFetch(ok(skill()));
    await client(fetch).skills.get(1);
    expect(requests[0]?.headers.get('authorization')).toBe('Bearer secret-token');
    expect(requests[0]?.headers.get('accept')).toBe('application/json');
  });

  it('9 paths sit below /api/v1 of the base URL, keeping a base path prefix', async () => {
    const { fetch, requests } = fakeFetch(ok(skill()));
    await new Client({ baseUrl: 'https://gw.test/convo', token: 't', fetch }).skills.get(7);
    expect(requests[0]?.url).toBe('https://gw.test/convo/api/v1/skills/7');
  });

  it('2.1 unwraps the envelope and returns data', async () => {
    const { fetch } = fakeFetch(ok(skill({ id: 3 })));
    expect((await client(fetch).skills.get(3)).id).toBe(3);
  });

  it('9 keeps fields the contract does not name (shapes may grow)', async () => {
    const { fetch } = fakeFetch(ok(skill({ color: 'blue' })));
    const got = (await client(fetch).skills.get(1)) as unknown as Record<string, unknown>;
    expect(got.color).toBe('blue');
  });

  it('2.2 a response whose type differs from the contract is a ResponseValidationError naming the path', async () => {
    const { fetch } = fakeFetch(ok(skill({ level: 5 })));
    const error = await client(fetch)
      .skills.get(1)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).path).toBe('data.level');
    expect((error as ResponseValidationError).body).toMatchObject({ data: { level: 5 } });
  });

  it('2.1 a body that is not an envelope is a ResponseValidationError', async () => {
    const { fetch } = fakeFetch(new Response('<html>', { status: 200 }));
    await expect(client(fetch).skills.get(1)).rejects.toBeInstanceOf(ResponseValidationError);
  });

  it('7 an error response is an ApiError with status, code, data, request id and error details', async () => {
    const { fetch } = fakeFetch(
      fail(
        403,
        'api_token_scope_not_allowed',
        { required_scopes: ['skills:read'] },
        {
          error_details: { service: 'core', retry_action: 'check_status' },
        },
      ),
    );
    const error = await client(fetch)
      .skills.get(1)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    const api = error as ApiError;
    expect(api.status).toBe(403);
    expect(api.code).toBe('api_token_scope_not_allowed');
    expect(api.requestId).toBe('00000000-0000-4000-8000-000000000001');
    expect(api.errorDetails?.retry_action).toBe('check_status');
    if (!api.is('api_token_scope_not_allowed')) throw new Error('expected the scope code');
    expect(api.data.required_scopes).toEqual(['skills:read']);
  });

  it('7 an error status without an error body is still an ApiError', async () => {
    const { fetch } = fakeFetch(new Response('Bad Gateway', { status: 502 }));
    const error = (await client(fetch)
      .skills.get(1)
      .catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(502);
    expect(error.code).toBe('http_502');
  });

  it('a read that gets no response is retried, then succeeds', async () => {
    const { fetch, requests } = fakeFetch(new TypeError('fetch failed'), ok(skill()));
    const onRetry = vi.fn();
    await client(fetch, { onRetry }).skills.get(1);
    expect(requests).toHaveLength(2);
    expect(onRetry).toHaveBeenCalledOnce();
    expect(onRetry.mock.calls[0]?.[0].error).toBeInstanceOf(ConnectionError);
  });

  it('a read that never gets a response fails with ConnectionError after maxRetries + 1 attempts', async () => {
    const { fetch, requests } = fakeFetch(new TypeError('fetch failed'));
    await expect(client(fetch, { maxRetries: 2 }).skills.get(1)).rejects.toBeInstanceOf(ConnectionError);
    expect(requests).toHaveLength(3);
  });

  it('a create that loses its connection is not repeated (it may have been applied)', async () => {
    const { fetch, requests } = fakeFetch(new TypeError('fetch failed'));
    await expect(client(fetch).skills.create({ name: 'a', instructions: 'b' })).rejects.toBeInstanceOf(
      ConnectionError,
    );
    expect(requests).toHaveLength(1);
  });

  it('7 an outage with retry_action retry is repeated, even for a write', async () => {
    const { fetch, requests } = fakeFetch(
      fail(503, 'api_v1_service_unavailable', null, { error_details: { retry_action: 'retry' } }),
      ok(skill(), {}, 201),
    );
    await client(fetch).skills.create({ name: 'a', instructions: 'b' });
    expect(requests).toHaveLength(2);
  });

  it('7 an outage with retry_action check_status is never repeated', async () => {
    const { fetch, requests } = fakeFetch(
      fail(503, 'api_v1_service_unavailable', null, { error_details: { retry_action: 'check_status' } }),
    );
    await expect(client(fetch).skills.get(1)).rejects.toBeInstanceOf(ApiError);
    expect(requests).toHaveLength(1);
  });

  it('a 4xx is thrown after exactly one request', async () => {
    const { fetch, requests } = fakeFetch(fail(404, 'api_v1_not_found'));
    await expect(client(fetch).skills.get(1)).rejects.toBeInstanceOf(ApiError);
    expect(requests).toHaveLength(1);
  });

  it('Retry-After is honoured when it asks for more than the backoff', async () => {
    const { fetch } = fakeFetch(
      fail(503, 'api_v1_service_unavailable', null, {
        error_details: { retry_action: 'retry' },
        headers: { 'retry-after': '0.05' },
      }),
      ok(skill()),
    );
    const onRetry = vi.fn();
    const started = performance.now();
    await client(fetch, { onRetry }).skills.get(1);
    expect(onRetry.mock.calls[0]?.[0].delayMs).toBeGreaterThanOrEqual(50);
    expect(performance.now() - started).toBeGreaterThanOrEqual(45);
  });

  it('maxRetries per request overrides the client', async () => {
    const { fetch, requests } = fakeFetch(new TypeError('fetch failed'));
    await expect(client(fetch).skills.get(1, { maxRetries: 0 })).rejects.toBeInstanceOf(ConnectionError);
    expect(requests).toHaveLength(1);
  });

  it('a response slower than timeout is a TimeoutError', async () => {
    const { fetch } = fakeFetch(
      (_, signal) =>
        new Promise<Response>((_, reject) => {
          signal.addEventListener('abort', () => reject(signal.reason));
        }),
    );
    await expect(client(fetch, { maxRetries: 0 }).skills.get(1, { timeout: 20 })).rejects.toBeInstanceOf(
      TimeoutError,
    );
  });

  it('a JSON body that stalls after the headers is a TimeoutError too: the timeout covers reading it', async () => {
    const { fetch } = fakeFetch((_, signal) => {
      // Like fetch: the signal errors a body still being read.
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('{"status":"succ'));
          signal.addEventListener('abort', () => controller.error(signal.reason));
        },
      });
      return new Response(body, { headers: { 'content-type': 'application/json' } });
    });
    await expect(client(fetch, { maxRetries: 0 }).skills.get(1, { timeout: 20 })).rejects.toBeInstanceOf(
      TimeoutError,
    );
  });

  it("4.4 the timeout covers a stream's headers, not its body: a stream slower than it still completes", async () => {
    const events = turnEvents(['a', 'b']);
    const { fetch } = fakeFetch((_, signal) => {
      const body = new ReadableStream<Uint8Array>({
        async start(controller) {
          signal.addEventListener('abort', () => controller.error(signal.reason));
          for (const event of events) {
            await new Promise((resolve) => setTimeout(resolve, 120));
            controller.enqueue(new TextEncoder().encode(sseText([event])));
          }
          controller.close();
        },
      });
      return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
    });
    // The body takes 4 x 120 ms, past the 300 ms timeout; its headers come at once, even on a busy machine.
    const stream = client(fetch, { timeout: 300 }).turns.stream(CHAT, { content: 'x' });
    expect(await stream.finalText()).toBe('ab');
  });

  it('header names are case-insensitive: a per-request header replaces the client one of the same name', async () => {
    const { fetch, requests } = fakeFetch(ok(skill()));
    await client(fetch, { headers: { 'X-Trace': 'client' } }).skills.get(1, {
      headers: { 'x-trace': 'call' },
    });
    expect(requests[0]?.headers.get('x-trace')).toBe('call');
  });

  it('a custom fetch is called as a plain function, so a detached window.fetch works', async () => {
    const { fetch: answer } = fakeFetch(ok(skill()));
    const receivers: unknown[] = [];
    const fetch = function (this: unknown, input: Request | URL | string, init?: RequestInit) {
      receivers.push(this);
      return answer(input, init);
    };
    await client(fetch).skills.get(1);
    expect(receivers).toEqual([undefined]);
  });

  it("the caller's signal aborts with AbortError and is not retried", async () => {
    const controller = new AbortController();
    const { fetch, requests } = fakeFetch((_, signal) => {
      const reply = new Promise<Response>((_, reject) => {
        signal.addEventListener('abort', () => reject(signal.reason));
      });
      // The caller aborts while the request is in flight, however long it took to get there.
      setImmediate(() => controller.abort());
      return reply;
    });
    const pending = client(fetch).skills.get(1, { signal: controller.signal });
    await expect(pending).rejects.toBeInstanceOf(AbortError);
    expect(requests).toHaveLength(1);
  });

  it('per-request headers are sent', async () => {
    const { fetch, requests } = fakeFetch(ok(skill()));
    await client(fetch, { headers: { 'x-app': 'a' } }).skills.get(1, { headers: { 'x-trace': 't' } });
    expect(requests[0]?.headers.get('x-app')).toBe('a');
    expect(requests[0]?.headers.get('x-trace')).toBe('t');
  });

  it('the logger gets one line per request', async () => {
    const { fetch } = fakeFetch(ok(skill()));
    const debug = vi.fn();
    await client(fetch, { logger: { debug } }).skills.get(1);
    expect(debug).toHaveBeenCalledWith(
      'GET /api/v1/skills/1 -> 200',
      expect.objectContaining({ status: 200 }),
    );
  });
});
