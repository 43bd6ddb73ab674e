import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  AbortError,
  ApiError,
  Client,
  type ClientOptions,
  ConnectionError,
  RedirectError,
  TimeoutError,
} from '../../src/index.js';
import { fail, fakeFetch, ok, skill } from '../support/fake-fetch.js';
import { signalled } from '../support/signalled.js';
import { CHAT, sseResponse, sseText, turnEvents } from '../support/sse.js';

/**
 * One exchange as the transport bounds and checks it (`http/transport.ts`): what came back must be a
 * `Response` that is no redirect, and the call's timeout and its caller's signal reach the fetch until the
 * call lets go of them, and not after.
 */

function client(fetch: ClientOptions['fetch'], options: Partial<ClientOptions> = {}) {
  return new Client({ baseUrl: 'https://api.test', token: 'tok-secret', fetch, maxRetries: 0, ...options });
}

/** A response whose body records its cancel. */
function cancellable(status: number, headers: Record<string, string> = {}) {
  const seen = { cancelled: false };
  const body = new ReadableStream({
    cancel() {
      seen.cancelled = true;
    },
  });
  return { response: new Response(body, { status, headers }), seen };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('what came back', () => {
  it('an injected fetch resolving to something not a Response is a ConnectionError that says so', async () => {
    const fetch = (async () => ({ status: 200 })) as unknown as ClientOptions['fetch'];
    const error = await client(fetch)
      .skills.get(1)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toContain('the fetch resolved to something not a Response');
  });

  it('5 a 3xx, from 300 to 399, is a RedirectError with its Location, token masked, and its body cancelled', async () => {
    for (const status of [300, 302, 399]) {
      const { response, seen } = cancellable(status, { location: 'https://elsewhere.test/?t=tok-secret' });
      const error = await client(async () => response)
        .skills.get(1)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RedirectError);
      expect(error).toMatchObject({ status, location: 'https://elsewhere.test/?t=[redacted]' });
      expect(seen.cancelled).toBe(true);
    }
  });

  it('5 a redirect without a Location has an empty one', async () => {
    const error = await client(async () => new Response(null, { status: 307 }))
      .skills.get(1)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RedirectError);
    expect((error as RedirectError).location).toBe('');
  });

  it('5 what a browser shows of a redirect under redirect: manual (opaqueredirect, status 0) is a RedirectError', async () => {
    const opaque = () => {
      const response = new Response(null, { status: 200 });
      Object.defineProperty(response, 'type', { value: 'opaqueredirect' });
      Object.defineProperty(response, 'status', { value: 0 });
      return response;
    };
    const error = await client(async () => opaque())
      .skills.get(1)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RedirectError);
    expect((error as RedirectError).status).toBe(0);
  });

  it('a 299 is no redirect (the envelope is read) and a 400 is the service’s error', async () => {
    await expect(client(async () => ok(skill(), {}, 299)).skills.get(1)).resolves.toMatchObject({ id: 1 });
    const error = await client(async () => new Response('{}', { status: 400 }))
      .skills.get(1)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(400);
  });
});

describe('the bounds of one exchange', () => {
  it('a signal aborted before the call sends nothing', async () => {
    const { fetch, requests } = fakeFetch(ok(skill()));
    const error = await client(fetch)
      .skills.get(1, { signal: AbortSignal.abort(new Error('before')) })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AbortError);
    expect(requests).toHaveLength(0);
  });

  it('the timeout aborts a pending fetch at its time, not before, as a TimeoutError', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let signal: AbortSignal | undefined;
    const called = signalled();
    const fetch = (_: unknown, init?: RequestInit) => {
      const given = init?.signal ?? undefined;
      signal = given;
      called.resolve();
      return new Promise<Response>((_, reject) =>
        given?.addEventListener('abort', () => reject(given.reason)),
      );
    };
    const call = client(fetch, { timeout: 1000 })
      .skills.get(1)
      .catch((e: unknown) => e);
    await called.promise;
    vi.advanceTimersByTime(999);
    expect(signal?.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(signal?.aborted).toBe(true);
    expect(signal?.reason).toMatchObject({ name: 'TimeoutError' });
    const error = await call;
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as Error).message).toBe('no response within 1000 ms');
  });

  it('once a call settled, neither its timeout nor its caller’s abort reaches the signal fetch had', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    for (const open of [false, true]) {
      const signals: AbortSignal[] = [];
      const reply = open ? () => sseResponse(sseText(turnEvents(['Hi']))) : () => ok(skill());
      const fetch = async (_: unknown, init?: RequestInit) => {
        if (init?.signal) signals.push(init.signal);
        return reply();
      };
      const controller = new AbortController();
      const c = client(fetch, { timeout: 1000 });
      if (open) await c.turns.stream(CHAT, { content: 'Hi' }, { signal: controller.signal }).finalTurn();
      else await c.skills.get(1, { signal: controller.signal });
      expect(signals).toHaveLength(1);
      vi.advanceTimersByTime(5000);
      expect(signals[0]?.aborted).toBe(false);
      controller.abort(new Error('late'));
      expect(signals[0]?.aborted).toBe(false);
    }
  });

  it('a failed exchange lets go of its timeout and its caller’s signal at once', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let signal: AbortSignal | undefined;
    const fetch = async (_: unknown, init?: RequestInit): Promise<Response> => {
      signal = init?.signal ?? undefined;
      throw new TypeError('fetch failed');
    };
    const controller = new AbortController();
    const error = await client(fetch, { timeout: 1000 })
      .skills.get(1, { signal: controller.signal })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    vi.advanceTimersByTime(5000);
    controller.abort(new Error('late'));
    expect(signal?.aborted).toBe(false);
  });

  it('4.4 a stream’s open answered with an error status fails with the service’s error, its body read', async () => {
    const { fetch } = fakeFetch(fail(404, 'api_v1_not_found'));
    const error = await client(fetch)
      .turns.stream(CHAT, { content: 'Hi' })
      .finalTurn()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 404, code: 'api_v1_not_found' });
  });
});
