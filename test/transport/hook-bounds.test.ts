import { describe, expect, it } from 'vitest';
import {
  AbortError,
  Client,
  type ClientOptions,
  ConnectionError,
  ConvoError,
  HookError,
  type Hooks,
  type StreamOptions,
  TimeoutError,
} from '../../src/index.js';
import { fail, fakeFetch, ok, skill } from '../support/fake-fetch.js';
import { CHAT, sseResponse, sseText, turnEvents } from '../support/sse.js';
import { surfaced } from '../support/surfaced.js';

/**
 * Hooks run inside the call's bounds: the signal and the `timeout` interrupt a hook that never settles, a
 * hook's own failure is a `HookError` (which hook, what it threw or returned as `cause`), never a connection
 * failure and never retried, and every call still fails only with a `ConvoError`.
 */

type Kind = 'beforeRequest' | 'afterResponse' | 'beforeRetry' | 'onRetry' | 'beforeError';
type Behaviour = 'throws' | 'garbage' | 'pending, then abort' | 'pending, then timeout';
type Target = 'call' | 'stream open';
type Level = 'client' | 'call';

const KINDS: Kind[] = ['beforeRequest', 'afterResponse', 'beforeRetry', 'onRetry', 'beforeError'];
const BEHAVIOURS: Behaviour[] = ['throws', 'garbage', 'pending, then abort', 'pending, then timeout'];
const TIMEOUT = 150;
/** What a busy machine may add to a bounded wait: far below what an unbounded one would take (10 s, or never). */
const BUSY_MARGIN_MS = 4_000;

/** A reply that never comes: it waits for the request's signal. */
const hang = (_: Request, signal: AbortSignal) =>
  new Promise<Response>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason)));

function success(target: Target): Response {
  return target === 'call' ? ok(skill()) : sseResponse(sseText(turnEvents(['Hi'])));
}

/**
 * What the exchange answers: a retry needs a failed first attempt, `beforeError` a failed exchange. A retry
 * hook does not hold the retry back, so a pending one is aborted once the retry is out (`reached`).
 */
function replies(kind: Kind, behaviour: Behaviour, target: Target, reached: () => void) {
  if (kind === 'beforeError') return [fail(404, 'api_v1_not_found')];
  if (kind === 'beforeRetry' || kind === 'onRetry') {
    const second = behaviour.startsWith('pending')
      ? (request: Request, signal: AbortSignal) => {
          reached();
          return hang(request, signal);
        }
      : success(target);
    return [new TypeError('fetch failed'), second];
  }
  return [success(target)];
}

/** The value a hook of `kind` may not return. */
const garbage = (kind: Kind) => (kind === 'afterResponse' ? { status: 200 } : 42);

/** What the call ends with, and how many requests went out. */
function expected(kind: Kind, behaviour: Behaviour): { error: string | undefined; fetches: number } {
  if (kind === 'beforeError') return { error: 'HookError', fetches: 1 };
  const sent = kind === 'beforeRequest' ? 0 : kind === 'afterResponse' ? 1 : 2;
  if (behaviour === 'throws') return { error: 'HookError', fetches: Math.min(sent, 1) };
  if (behaviour === 'garbage')
    // A retry callback's return value is ignored (it is typed `void`): the retry goes on and succeeds.
    return kind === 'beforeRetry' || kind === 'onRetry'
      ? { error: undefined, fetches: 2 }
      : { error: 'HookError', fetches: sent };
  if (behaviour === 'pending, then abort') return { error: 'AbortError', fetches: sent };
  // A timeout is retried (reads and turns repeat one): each attempt sends again, each ends at the timeout.
  return { error: 'TimeoutError', fetches: kind === 'afterResponse' ? 2 : sent };
}

interface Case {
  kind: Kind;
  behaviour: Behaviour;
  target: Target;
  level: Level;
}

const CASES: Case[] = KINDS.flatMap((kind) =>
  BEHAVIOURS.flatMap((behaviour) =>
    (['call', 'stream open'] as const).flatMap((target) =>
      (kind === 'onRetry' ? (['client'] as const) : (['client', 'call'] as const)).map((level) => ({
        kind,
        behaviour,
        target,
        level,
      })),
    ),
  ),
);

async function run({ kind, behaviour, target, level }: Case) {
  const thrown = new Error(`${kind} failed on purpose`);
  let calls = 0;
  const controller = new AbortController();
  // Aborted at the state the case is about (the hook pending; for a retry hook, the retry out too), however
  // slow the machine was to reach it: a timer from the start could fire before.
  const abortNow = () => {
    if (behaviour === 'pending, then abort') setTimeout(() => controller.abort(), 0);
  };
  const retryHook = kind === 'beforeRetry' || kind === 'onRetry';
  const hook = () => {
    calls++;
    if (behaviour === 'throws') throw thrown;
    if (behaviour === 'garbage') return garbage(kind);
    if (!retryHook) abortNow();
    return new Promise<never>(() => {});
  };
  const hooks = (kind === 'onRetry' ? {} : { [kind]: [hook] }) as Hooks;
  const { fetch, requests } = fakeFetch(...replies(kind, behaviour, target, abortNow));
  const client = new Client({
    baseUrl: 'https://api.test',
    token: 't',
    fetch,
    maxRetries: 1,
    retryDelay: { min: 1, max: 5 },
    ...(kind === 'onRetry' ? { onRetry: hook as ClientOptions['onRetry'] } : {}),
    ...(level === 'client' && kind !== 'onRetry' ? { hooks } : {}),
  });
  const options: StreamOptions = {
    signal: controller.signal,
    ...(behaviour === 'pending, then timeout' ? { timeout: TIMEOUT } : {}),
    ...(level === 'call' ? { hooks } : {}),
  };
  const started = performance.now();
  const result = await surfaced(() =>
    target === 'call'
      ? client.skills.get(1, options)
      : client.turns.stream(CHAT, { content: 'x' }, { ...options, maxResumes: 0 }),
  );
  return { ...result, ms: performance.now() - started, calls, thrown, requests };
}

describe('7: hooks run inside the call', () => {
  for (const c of CASES) {
    const { error, fetches } = expected(c.kind, c.behaviour);
    it(`${c.kind} (${c.level}) ${c.behaviour}, on a ${c.target}: ${error ?? 'the call goes on'}`, async () => {
      const result = await run(c);
      expect(result.threw).toBe(false);
      if (error === undefined) expect(result.error).toBeUndefined();
      else {
        expect(result.error).toBeInstanceOf(ConvoError);
        expect((result.error as Error).name).toBe(error);
      }
      expect(result.requests).toHaveLength(fetches);
      // Bounded: at the abort or the timeout (one attempt of 150 ms, or two with the retry), never the hook,
      // which never settles; the margin is for a busy machine, the hook would hang past the test's timeout.
      expect(result.ms).toBeLessThan(2 * TIMEOUT + BUSY_MARGIN_MS);
      if (error !== 'HookError') return;
      const hookError = result.error as HookError;
      expect(hookError.hook).toBe(c.kind);
      expect(hookError.cause).toEqual(c.behaviour === 'throws' ? result.thrown : expect.anything());
      if (c.behaviour === 'garbage') expect(hookError.cause).toEqual(garbage(c.kind));
      // Never retried: the hook ran once.
      expect(result.calls).toBe(1);
    });
  }
});

describe('7: the issue cases', () => {
  /** A hook that takes 10 s; its timer does not keep the process alive. */
  const tenSeconds = () => new Promise<void>((resolve) => setTimeout(resolve, 10_000).unref());

  it('a 10 s beforeRequest hook with timeout 300: TimeoutError after ~300 ms (it took 10 s per attempt)', async () => {
    const { fetch, requests } = fakeFetch(ok(skill()));
    const client = new Client({ baseUrl: 'https://api.test', token: 't', fetch, maxRetries: 0 });
    const started = performance.now();
    const error = await client.skills
      .get(1, { timeout: 300, hooks: { beforeRequest: [tenSeconds] } })
      .catch((e: unknown) => e);
    const ms = performance.now() - started;
    expect(error).toBeInstanceOf(TimeoutError);
    expect(ms).toBeGreaterThanOrEqual(290);
    expect(ms).toBeLessThan(300 + BUSY_MARGIN_MS);
    expect(requests).toHaveLength(0);
  });

  it('a 10 s afterResponse hook with timeout 300 and the default retries: three attempts of 300 ms, not 30 s', async () => {
    const { fetch, requests } = fakeFetch(ok(skill()));
    const client = new Client({
      baseUrl: 'https://api.test',
      token: 't',
      fetch,
      retryDelay: { min: 1, max: 5 },
    });
    const started = performance.now();
    const error = await client.skills
      .get(1, { timeout: 300, hooks: { afterResponse: [tenSeconds] } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(performance.now() - started).toBeLessThan(3 * 300 + BUSY_MARGIN_MS);
    expect(requests).toHaveLength(3);
  });

  it('a 10 s hook and an abort: AbortError at once', async () => {
    const { fetch } = fakeFetch(ok(skill()));
    const client = new Client({
      baseUrl: 'https://api.test',
      token: 't',
      fetch,
      hooks: { beforeRequest: [tenSeconds] },
    });
    const started = performance.now();
    const error = await client.skills.get(1, { signal: AbortSignal.timeout(30) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AbortError);
    expect(performance.now() - started).toBeLessThan(BUSY_MARGIN_MS);
  });

  it('a throwing beforeRequest is a HookError, not "ConnectionError: the connection failed", and not retried', async () => {
    const { fetch, requests } = fakeFetch(ok(skill()));
    let calls = 0;
    const client = new Client({
      baseUrl: 'https://api.test',
      token: 't',
      fetch,
      hooks: {
        beforeRequest: [
          () => {
            calls++;
            throw new RangeError('no trace id');
          },
        ],
      },
    });
    const error = await client.skills.get(1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HookError);
    expect(error).not.toBeInstanceOf(ConnectionError);
    expect((error as HookError).message).toBe('the beforeRequest hook threw: no trace id');
    expect((error as HookError).cause).toBeInstanceOf(RangeError);
    expect(calls).toBe(1);
    expect(requests).toHaveLength(0);
  });

  it('a beforeError returning a string or a plain Error: a HookError, never "Non-error was thrown"', async () => {
    for (const value of ['oops', new Error('plain')]) {
      const { fetch } = fakeFetch(fail(503, 'api_v1_core_unavailable', null, { error_details: {} }));
      const client = new Client({
        baseUrl: 'https://api.test',
        token: 't',
        fetch,
        hooks: { beforeError: [() => value as never] },
      });
      const error = await client.skills.get(1).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(HookError);
      expect((error as HookError).hook).toBe('beforeError');
      expect((error as HookError).cause).toBe(value);
      expect((error as Error).message).not.toContain('Non-error');
    }
  });

  it('a beforeRequest or afterResponse returning null, or throwing a non-error: a HookError naming it', async () => {
    const cases: Array<[keyof Hooks, () => unknown, string]> = [
      [
        'beforeRequest',
        () => null,
        'the beforeRequest hook returned null: it may return a Request, a Response or nothing',
      ],
      [
        'afterResponse',
        () => null,
        'the afterResponse hook returned null: it may return a Response or nothing',
      ],
      [
        'afterResponse',
        () => new Request('https://api.test'),
        'the afterResponse hook returned an object (Request): it may return a Response or nothing',
      ],
      ['beforeRequest', () => Promise.reject(undefined), 'the beforeRequest hook threw: undefined'],
    ];
    for (const [kind, hook, message] of cases) {
      const { fetch } = fakeFetch(ok(skill()));
      const client = new Client({ baseUrl: 'https://api.test', token: 't', fetch });
      const error = await client.skills.get(1, { hooks: { [kind]: [hook] } }).catch((e: unknown) => e);
      expect(error, message).toBeInstanceOf(HookError);
      expect((error as HookError).message).toBe(message);
    }
  });

  it('a later beforeError sees the HookError of an earlier one, and may replace it', async () => {
    const { fetch } = fakeFetch(fail(404, 'api_v1_not_found'));
    const seen: string[] = [];
    class Mine extends ConvoError {}
    const client = new Client({
      baseUrl: 'https://api.test',
      token: 't',
      fetch,
      hooks: { beforeError: [() => 42 as never] },
    });
    const error = await client.skills
      .get(1, {
        hooks: {
          beforeError: [
            ({ error }) => {
              seen.push(error.name);
              return new Mine('mine', { cause: error });
            },
          ],
        },
      })
      .catch((e: unknown) => e);
    expect(seen).toEqual(['HookError']);
    expect(error).toBeInstanceOf(Mine);
  });

  it("an afterResponse may still return ky's retry marker (one re-send)", async () => {
    const { default: ky } = await import('ky');
    const { fetch, requests } = fakeFetch(fail(401, 'api_token_invalid'), ok(skill()));
    const client = new Client({
      baseUrl: 'https://api.test',
      token: 't',
      fetch,
      hooks: {
        afterResponse: [
          ({ response, retryCount }) =>
            response.status === 401 && retryCount === 0 ? (ky.retry() as never) : undefined,
        ],
      },
    });
    await expect(client.skills.get(1)).resolves.toMatchObject({ id: 1 });
    expect(requests).toHaveLength(2);
  });

  it('a retry callback returning a promise that rejects leaves no unhandled rejection; the retry goes on', async () => {
    const { fetch, requests } = fakeFetch(new TypeError('fetch failed'), ok(skill()));
    const client = new Client({
      baseUrl: 'https://api.test',
      token: 't',
      fetch,
      retryDelay: { min: 1, max: 5 },
      onRetry: (() => Promise.reject(new Error('logging failed'))) as never,
      hooks: { beforeRetry: [(() => Promise.reject(new Error('metrics failed'))) as never] },
    });
    await expect(client.skills.get(1)).resolves.toMatchObject({ id: 1 });
    expect(requests).toHaveLength(2);
  });
});
