import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  AbortError,
  Client,
  type ClientOptions,
  ConnectionError,
  HookError,
  type Hooks,
} from '../../src/index.js';
import { fail, fakeFetch, ok, skill } from '../support/fake-fetch.js';
import { signalled } from '../support/signalled.js';

/**
 * One exchange through ky (`http/send-once.ts`), seen from the fetch it ends in: what fetch is handed, which
 * fetch, how the SDK's hooks reach ky (guarded, bounded by the call's signal), and ky's own retry, which
 * only re-sends what an `afterResponse` hook asks for with `ky.retry()`.
 */

type Seen = { input: unknown; init: RequestInit | undefined; self: unknown; text: string | undefined };

/** A fetch that records how it was called (a Request's body read then) and answers a skill. */
function recording() {
  const seen: Seen[] = [];
  const fetch = async function (this: unknown, input: Request | URL | string, init?: RequestInit) {
    const text = input instanceof Request ? await input.clone().text() : undefined;
    seen.push({ input, init, self: this, text });
    return ok(skill());
  };
  return { fetch, seen };
}

function client(fetch: ClientOptions['fetch'], options: Partial<ClientOptions> = {}) {
  return new Client({ baseUrl: 'https://api.test', token: 't', fetch, maxRetries: 0, ...options });
}

const created = { name: 'n', instructions: 'i' };

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('what fetch is handed', () => {
  it('with no hook: the URL, the method, the headers, the body as JSON text, the call signal, no redirect followed', async () => {
    const { fetch, seen } = recording();
    const controller = new AbortController();
    await client(fetch).skills.create(created, { signal: controller.signal });
    expect(seen).toHaveLength(1);
    const { input, init, self } = seen[0]!;
    expect(input).toBe('https://api.test/api/v1/skills');
    expect(self).toBeUndefined();
    expect(init?.method).toBe('POST');
    expect(init?.body).toBe(JSON.stringify(created));
    expect(init?.redirect).toBe('manual');
    const headers = new Headers(init?.headers);
    expect(headers.get('authorization')).toBe('Bearer t');
    expect(headers.get('accept')).toBe('application/json');
    expect(headers.get('content-type')).toBe('application/json');
    // The call's own signal (the caller's and the timeout's), not one ky combined.
    expect(init?.signal).toBeInstanceOf(AbortSignal);
    expect(init?.signal).not.toBe(controller.signal);
    expect(init?.signal?.aborted).toBe(false);
  });

  it('with no hook: a GET has no body', async () => {
    const { fetch, seen } = recording();
    await client(fetch).skills.get(1);
    expect(seen[0]?.init?.method).toBe('GET');
    expect(seen[0]?.init?.body).toBeNull();
  });

  it('the caller aborting a pending fetch aborts the signal fetch was given', async () => {
    let signal: AbortSignal | undefined;
    const controller = new AbortController();
    const fetch = (_: unknown, init?: RequestInit) => {
      const given = init?.signal ?? undefined;
      signal = given;
      const pending = new Promise<Response>((_, reject) =>
        given?.addEventListener('abort', () => reject(given.reason)),
      );
      controller.abort(new Error('stop'));
      return pending;
    };
    const error = await client(fetch)
      .skills.get(1, { signal: controller.signal })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AbortError);
    expect(signal?.aborted).toBe(true);
  });

  it('with a beforeRequest hook: ky’s Request as the hook left it, not followed on redirect, its body included', async () => {
    const { fetch, seen } = recording();
    const hooks: Hooks = { beforeRequest: [({ request }) => void request.headers.set('x-trace', '1')] };
    await client(fetch, { hooks }).skills.create(created);
    const request = seen[0]?.input as Request;
    expect(request).toBeInstanceOf(Request);
    expect(seen[0]?.self).toBeUndefined();
    expect(request.url).toBe('https://api.test/api/v1/skills');
    expect(request.method).toBe('POST');
    expect(request.redirect).toBe('manual');
    expect(request.headers.get('x-trace')).toBe('1');
    expect(request.headers.get('authorization')).toBe('Bearer t');
    expect(seen[0]?.text).toBe(JSON.stringify(created));
  });

  it('a request’s own beforeRequest may hand over another Request: that one goes out, its body included', async () => {
    const { fetch, requests } = fakeFetch(ok(skill()));
    const other = { name: 'from the hook', instructions: 'i' };
    await client(fetch).skills.create(created, {
      hooks: { beforeRequest: [({ request }) => new Request(request, { body: JSON.stringify(other) })] },
    });
    expect(requests.map((r) => r.body)).toEqual([other]);
  });

  it('with only an afterResponse hook: the body is still sent, as ky’s Request carries it', async () => {
    const { fetch, requests } = fakeFetch(ok(skill()));
    const afterResponse = vi.fn();
    await client(fetch, { hooks: { afterResponse: [afterResponse] } }).skills.create(created);
    await client(fetch).skills.create(created, { hooks: { afterResponse: [afterResponse] } });
    expect(requests.map((r) => r.body)).toEqual([created, created]);
    expect(afterResponse).toHaveBeenCalledTimes(2);
  });
});

describe("ky's own timeout is off", () => {
  it('a response slower than ky’s default 10 s, within the call’s timeout, is read', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const called = signalled();
      const fetch = () => {
        called.resolve();
        return new Promise<Response>((resolve) => setTimeout(() => resolve(ok(skill())), 30_000));
      };
      const call = client(fetch, { timeout: 60_000 }).skills.get(1);
      await called.promise;
      await vi.advanceTimersByTimeAsync(30_000);
      await expect(call).resolves.toMatchObject({ id: 1 });
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('which fetch', () => {
  it('the global fetch at call time when the client has none, with and without hooks', async () => {
    const { fetch, seen } = recording();
    vi.stubGlobal('fetch', fetch);
    const plain = new Client({ baseUrl: 'https://api.test', token: 't' });
    await plain.skills.get(1);
    const hooked = new Client({
      baseUrl: 'https://api.test',
      token: 't',
      hooks: { beforeRequest: [() => undefined] },
    });
    await hooked.skills.get(1);
    expect(seen).toHaveLength(2);
  });

  it('the client’s fetch, called as a plain function, when a beforeRequest hook runs', async () => {
    const { fetch, seen } = recording();
    const global = recording();
    vi.stubGlobal('fetch', global.fetch);
    await client(fetch, { hooks: { beforeRequest: [() => undefined] } }).skills.get(1);
    expect(seen).toHaveLength(1);
    expect(seen[0]?.self).toBeUndefined();
    expect(global.seen).toHaveLength(0);
  });
});

describe("ky's own retry", () => {
  it('re-sends once when an afterResponse hook returns ky.retry(), a client’s or a request’s, never twice', async () => {
    const { default: ky } = await import('ky');
    const always = () => ky.retry() as never;
    const levels: [Hooks | undefined, Hooks | undefined][] = [
      [{ afterResponse: [always] }, undefined],
      [undefined, { afterResponse: [always] }],
    ];
    for (const [clientHooks, own] of levels) {
      const { fetch, requests } = fakeFetch(ok(skill()));
      const c = client(fetch, clientHooks ? { hooks: clientHooks } : {});
      await c.skills.get(1, own ? { hooks: own } : undefined).catch(() => {});
      expect(requests).toHaveLength(2);
    }
  });

  it('a request’s ky.retry() re-sends where the client has hooks of its own (beforeRequest only)', async () => {
    const { default: ky } = await import('ky');
    const { fetch, requests } = fakeFetch(fail(401, 'api_token_invalid'), ok(skill()));
    const c = client(fetch, { hooks: { beforeRequest: [() => undefined] } });
    const retry = ({ response }: { response: Response }) =>
      response.status === 401 ? (ky.retry() as never) : undefined;
    await expect(c.skills.get(1, { hooks: { afterResponse: [retry] } })).resolves.toMatchObject({ id: 1 });
    expect(requests).toHaveLength(2);
  });

  it('does not re-send a failed connection itself, hooks or not: the SDK’s policy decides (maxRetries: 0)', async () => {
    for (const hooks of [
      { afterResponse: [() => undefined] },
      { beforeRequest: [() => undefined] },
      undefined,
    ]) {
      const { fetch, requests } = fakeFetch(new TypeError('fetch failed'), ok(skill()));
      const error = await client(fetch, hooks ? { hooks } : {})
        .skills.get(1)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConnectionError);
      expect(requests).toHaveLength(1);
    }
  });

  it('does not re-send an error status itself (a 503 to a GET, with an afterResponse hook)', async () => {
    const { fetch, requests } = fakeFetch(fail(503, 'api_v1_unavailable'), ok(skill()));
    const error = await client(fetch, { hooks: { afterResponse: [() => undefined] } })
      .skills.get(1)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 503 });
    expect(requests).toHaveLength(1);
  });
});

describe('the SDK’s hooks in ky', () => {
  it('a beforeRequest or afterResponse that throws fails the call with a HookError naming it', async () => {
    for (const name of ['beforeRequest', 'afterResponse'] as const) {
      const cause = new Error('broken');
      const hooks: Hooks = {
        [name]: [
          () => {
            throw cause;
          },
        ],
      };
      for (const [level, own] of [
        ['client', undefined],
        ['call', hooks],
      ] as const) {
        const { fetch } = fakeFetch(ok(skill()));
        const c = client(fetch, level === 'client' ? { hooks } : {});
        const error = await c.skills.get(1, own ? { hooks: own } : undefined).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(HookError);
        expect(error).toMatchObject({ hook: name, message: `the ${name} hook threw: broken`, cause });
      }
    }
  });

  it('what a hook may not return is a HookError that says what it may return', async () => {
    const cases: [keyof Hooks, unknown, string][] = [
      ['beforeRequest', 42, 'a Request, a Response'],
      ['beforeRequest', {}, 'a Request, a Response'],
      ['afterResponse', {}, 'a Response'],
      ['afterResponse', null, 'a Response'],
      ['afterResponse', 'retry', 'a Response'],
      ['afterResponse', new Request('https://api.test/'), 'a Response'],
    ];
    for (const [name, value, allowed] of cases) {
      const { fetch } = fakeFetch(ok(skill()));
      const hooks = { [name]: [() => value] } as Hooks;
      const error = await client(fetch, { hooks })
        .skills.get(1)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(HookError);
      expect((error as HookError).hook).toBe(name);
      expect((error as Error).message).toContain(`it may return ${allowed} or nothing`);
    }
  });

  it('a hook may return a Request (beforeRequest), a Response, or nothing', async () => {
    const { fetch, requests } = fakeFetch(fail(500, 'api_v1_internal'));
    const answered = () => ok(skill({ id: 5 }));
    const c = client(fetch, { hooks: { beforeRequest: [({ request }) => new Request(request)] } });
    await expect(c.skills.get(1, { hooks: { afterResponse: [answered] } })).resolves.toMatchObject({ id: 5 });
    await expect(
      client(fakeFetch(ok(skill())).fetch, { hooks: { beforeRequest: [answered] } }).skills.get(1),
    ).resolves.toMatchObject({ id: 5 });
    expect(requests).toHaveLength(1);
  });

  it('a pending hook is ended by the caller’s abort; a response that comes after has its body cancelled', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let cancelled: unknown;
    const body = new ReadableStream({
      cancel(reason) {
        cancelled = reason ?? 'cancelled';
      },
    });
    const { fetch } = fakeFetch(() => new Response(body, { status: 200 }));
    const controller = new AbortController();
    const entered = signalled();
    const hooks: Hooks = {
      afterResponse: [
        async () => {
          entered.resolve();
          await held;
        },
      ],
    };
    const call = client(fetch, { hooks })
      .skills.get(1, { signal: controller.signal })
      .catch((e: unknown) => e);
    await entered.promise;
    controller.abort(new Error('stop'));
    const error = await call;
    expect(error).toBeInstanceOf(AbortError);
    expect(cancelled).toBeUndefined();
    release();
    await vi.waitFor(() => expect(cancelled).toBeDefined());
  });

  it('a pending beforeRequest is ended by the abort, and nothing is sent', async () => {
    const { fetch, requests } = fakeFetch(ok(skill()));
    const controller = new AbortController();
    const entered = signalled();
    const hooks: Hooks = {
      beforeRequest: [
        () => {
          entered.resolve();
          return new Promise<undefined>(() => {});
        },
      ],
    };
    const call = client(fetch)
      .skills.get(1, { signal: controller.signal, hooks })
      .catch((e: unknown) => e);
    await entered.promise;
    controller.abort(new Error('stop'));
    expect(await call).toBeInstanceOf(AbortError);
    expect(requests).toHaveLength(0);
  });

  it('a response without a body that comes after the abort is dropped quietly', async () => {
    const held = signalled();
    const entered = signalled();
    const { fetch } = fakeFetch(() => new Response(null, { status: 204 }));
    const controller = new AbortController();
    const hooks: Hooks = {
      afterResponse: [
        async () => {
          entered.resolve();
          await held.promise;
        },
      ],
    };
    const call = client(fetch, { hooks })
      .skills.get(1, { signal: controller.signal })
      .catch((e: unknown) => e);
    await entered.promise;
    controller.abort(new Error('stop'));
    expect(await call).toBeInstanceOf(AbortError);
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    try {
      held.resolve();
      await new Promise((resolve) => setTimeout(resolve, 10));
    } finally {
      process.off('unhandledRejection', unhandled);
    }
    expect(unhandled).not.toHaveBeenCalled();
  });
});
