import { getEventListeners } from 'node:events';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { backoff, retrying } from '../../src/http/policy-run.js';
import { AbortError, type ApiError, Client, ConnectionError, TimeoutError } from '../../src/index.js';
import { api } from '../support/api-error.js';
import { fail, fakeFetch, ok, skill } from '../support/fake-fetch.js';
import { SETTINGS, scope } from '../support/retry-scope.js';

/** An attempt that fails with each of `errors` in turn, then succeeds; records when each attempt ran. */
function scripted(...errors: Error[]) {
  const at: number[] = [];
  const attempt = async () => {
    at.push(Date.now());
    const error = errors.shift();
    if (error) throw error;
    return 'done';
  };
  return { attempt, at };
}

/** Settles `promise` by itself, so that a rejection is never unhandled while timers are advanced. */
function settle<T>(promise: Promise<T>) {
  const result: { value?: T; error?: unknown; done: boolean } = { done: false };
  promise.then(
    (value) => Object.assign(result, { value, done: true }),
    (error: unknown) => Object.assign(result, { error, done: true }),
  );
  return result;
}

beforeEach(() => {
  vi.useFakeTimers({ now: Date.parse('2026-11-24T00:00:00Z') });
  vi.spyOn(Math, 'random').mockReturnValue(0);
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('the waits between attempts (fake timers, real values)', () => {
  it('each retry waits the backoff: 500 ms, then 1,000 ms', async () => {
    const { attempt, at } = scripted(new ConnectionError('a'), new ConnectionError('b'));
    const run = settle(retrying(attempt, scope()));
    await vi.advanceTimersByTimeAsync(499);
    expect(at).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(at).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(999);
    expect(at).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(run).toEqual({ value: 'done', done: true });
    expect(at.map((t) => t - at[0]!)).toEqual([0, 500, 1_500]);
  });

  it('onRetry is told the attempt and the wait before it is taken', async () => {
    const onRetry = vi.fn();
    const { attempt } = scripted(new ConnectionError('a'));
    const run = settle(retrying(attempt, scope({}, { onRetry })));
    await vi.advanceTimersByTimeAsync(0);
    expect(onRetry).toHaveBeenCalledWith({ error: expect.any(ConnectionError), attempt: 1, delayMs: 500 });
    await vi.advanceTimersByTimeAsync(500);
    expect(run.value).toBe('done');
  });

  it('the retries run out after maxRetries: the last error is thrown without a further wait', async () => {
    const { attempt, at } = scripted(...[1, 2, 3, 4].map((n) => new ConnectionError(String(n))));
    const run = settle(retrying(attempt, scope()));
    await vi.advanceTimersByTimeAsync(1_500);
    expect(run.done).toBe(true);
    expect((run.error as Error).message).toBe('3');
    expect(at).toHaveLength(3);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('Retry-After is waited once, not added to the backoff', async () => {
    const asked = api(503, 'api_v1_service_unavailable', {
      retryAfterMs: 3_000,
      errorDetails: { retry_action: 'retry' },
    });
    const { attempt, at } = scripted(asked);
    const run = settle(retrying(attempt, scope()));
    await vi.advanceTimersByTimeAsync(2_999);
    expect(at).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(run.value).toBe('done');
    expect(at[1]! - at[0]!).toBe(3_000);
  });

  it('a failure that is not retried never sleeps its Retry-After: a 429 with no retry left', async () => {
    const limited = api(429, 'rate_limited', { retryAfterMs: 30_000 });
    const { attempt } = scripted(limited);
    const run = settle(retrying(attempt, scope({}, { maxRetries: 0 })));
    await vi.advanceTimersByTimeAsync(0);
    expect(run).toEqual({ error: limited, done: true });
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a failure the policy never retries never sleeps its Retry-After', async () => {
    const refused = api(409, 'api_v1_chat_busy', { retryAfterMs: 30_000 });
    const run = settle(retrying(scripted(refused).attempt, scope({ kind: 'turn' })));
    await vi.advanceTimersByTimeAsync(0);
    expect(run).toEqual({ error: refused, done: true });
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a Retry-After longer than maxRetryAfter is thrown at once, with retryAfterMs on it', async () => {
    const asked = api(429, 'rate_limited', { retryAfterMs: 61_000 });
    const run = settle(retrying(scripted(asked).attempt, scope({}, { timeoutMs: 120_000 })));
    await vi.advanceTimersByTimeAsync(0);
    expect(run.error).toBe(asked);
    expect((run.error as ApiError).retryAfterMs).toBe(61_000);
  });

  it("a Retry-After past the call's remaining timeout is thrown at once", async () => {
    const asked = api(429, 'rate_limited', { retryAfterMs: 3_600_000 });
    const run = settle(retrying(scripted(asked).attempt, scope({}, { timeoutMs: 1_000 })));
    await vi.advanceTimersByTimeAsync(0);
    expect(run.error).toBe(asked);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("the call's time is counted from its first attempt: a late Retry-After that fits no more is thrown", async () => {
    let calls = 0;
    const attempt = async () => {
      calls++;
      if (calls === 1) {
        await new Promise((resolve) => setTimeout(resolve, 700));
        throw api(429, 'rate_limited', { retryAfterMs: 400 });
      }
      return 'done';
    };
    const run = settle(retrying(attempt, scope({}, { timeoutMs: 1_000 })));
    await vi.advanceTimersByTimeAsync(700);
    expect(run.done).toBe(true);
    expect(calls).toBe(1);
  });

  it('an abort during a wait surfaces at once as AbortError, with the reason as cause', async () => {
    const controller = new AbortController();
    const { attempt, at } = scripted(new ConnectionError('a'));
    const run = settle(retrying(attempt, scope({ signal: controller.signal }, { minDelayMs: 3_000 })));
    await vi.advanceTimersByTimeAsync(50);
    controller.abort(new Error('user left'));
    await vi.advanceTimersByTimeAsync(0);
    expect(run.done).toBe(true);
    expect(run.error).toBeInstanceOf(AbortError);
    expect((run.error as AbortError).cause).toEqual(new Error('user left'));
    expect((run.error as Error).message).toBe('the request was aborted by its signal');
    expect(at).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('an abort from onRetry, just before the wait, ends the call at once', async () => {
    const controller = new AbortController();
    const { attempt, at } = scripted(new ConnectionError('a'));
    const onRetry = () => controller.abort();
    const run = settle(
      retrying(attempt, scope({ signal: controller.signal }, { minDelayMs: 3_000, onRetry })),
    );
    await vi.advanceTimersByTimeAsync(0);
    expect(run.error).toBeInstanceOf(AbortError);
    expect((run.error as Error).message).toBe('the request was aborted by its signal');
    expect(at).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a finished wait leaves no abort listener on the signal', async () => {
    const controller = new AbortController();
    const { attempt } = scripted(new ConnectionError('a'), new ConnectionError('b'));
    const run = settle(retrying(attempt, scope({ signal: controller.signal })));
    await vi.advanceTimersByTimeAsync(1_500);
    expect(run.value).toBe('done');
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('a signal aborted before the call sends nothing', async () => {
    const { attempt, at } = scripted();
    const run = settle(retrying(attempt, scope({ signal: AbortSignal.abort() })));
    await vi.advanceTimersByTimeAsync(0);
    expect(run.error).toBeInstanceOf(AbortError);
    expect(at).toHaveLength(0);
  });

  it('an abort after the last attempt succeeded is still an AbortError', async () => {
    const controller = new AbortController();
    const attempt = async () => {
      controller.abort('why');
      return 'done';
    };
    const run = settle(retrying(attempt, scope({ signal: controller.signal })));
    await vi.advanceTimersByTimeAsync(0);
    expect(run.error).toBeInstanceOf(AbortError);
    expect((run.error as Error).message).toBe('the request was aborted by its signal');
    expect((run.error as Error).cause).toBe('why');
  });

  it('7.3 polling a running key backs off up to maxDelayMs and no further, without using maxRetries', async () => {
    const running = () => api(409, 'api_v1_turn_in_progress');
    const { attempt, at } = scripted(...Array.from({ length: 7 }, running));
    const run = settle(
      retrying(attempt, scope({ kind: 'turn', deadline: Date.now() + 60_000 }, { maxRetries: 0 })),
    );
    await vi.advanceTimersByTimeAsync(40_000);
    expect(run.value).toBe('done');
    const gaps = at.slice(1).map((t, i) => t - at[i]!);
    expect(gaps).toEqual([500, 1_000, 2_000, 4_000, 8_000, 8_000, 8_000]);
  });

  it('7.3 polling stops when the next wait would end past the deadline: the 409 is thrown without it', async () => {
    const running = () => api(409, 'api_v1_turn_in_progress');
    const { attempt, at } = scripted(...Array.from({ length: 10 }, running));
    const run = settle(retrying(attempt, scope({ kind: 'turn', deadline: Date.now() + 3_000 })));
    await vi.advanceTimersByTimeAsync(1_500);
    expect(run.done).toBe(true);
    expect((run.error as ApiError).code).toBe('api_v1_turn_in_progress');
    expect(at.map((t) => t - at[0]!)).toEqual([0, 500, 1_500]);
  });

  it('7.3 a running key is still polled after the retries are used up, each on its own backoff', async () => {
    const running = () => api(409, 'api_v1_turn_in_progress');
    const { attempt, at } = scripted(new ConnectionError('lost'), running(), running());
    const run = settle(
      retrying(attempt, scope({ kind: 'turn', deadline: Date.now() + 60_000 }, { maxRetries: 1 })),
    );
    await vi.advanceTimersByTimeAsync(2_000);
    expect(run.value).toBe('done');
    expect(at.map((t) => t - at[0]!)).toEqual([0, 500, 1_000, 2_000]);
  });

  it('7.3 onRetry is told of each poll too, with the number of the attempt that failed', async () => {
    const onRetry = vi.fn();
    const { attempt } = scripted(new ConnectionError('lost'), api(409, 'api_v1_turn_in_progress'));
    const run = settle(
      retrying(attempt, scope({ kind: 'turn', deadline: Date.now() + 60_000 }, { onRetry })),
    );
    await vi.advanceTimersByTimeAsync(1_000);
    expect(run.value).toBe('done');
    expect(onRetry.mock.calls.map(([info]) => [info.attempt, info.delayMs])).toEqual([
      [1, 500],
      [2, 500],
    ]);
  });

  it("the waits are p-retry's backoff, the same one a stream's re-open waits", async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.5);
    const { attempt, at } = scripted(...[1, 2, 3].map((n) => new ConnectionError(String(n))));
    const run = settle(retrying(attempt, scope({}, { maxRetries: 3 })));
    await vi.advanceTimersByTimeAsync(6_000);
    expect(run.value).toBe('done');
    const gaps = at.slice(1).map((t, i) => t - at[i]!);
    expect(gaps).toEqual([1, 2, 3].map((n) => backoff(n, SETTINGS, 0.5)));
  });

  it("a stream's re-open after its 2nd break waits the 2nd backoff before its first attempt", async () => {
    const { attempt, at } = scripted();
    const started = Date.now();
    const run = settle(retrying(attempt, scope({ kind: 'turn', resumed: 2 })));
    await vi.advanceTimersByTimeAsync(999);
    expect(at).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(run.value).toBe('done');
    expect(at).toEqual([started + 1_000]);
  });

  it('an abort during the wait of a re-open ends it at once: nothing is sent', async () => {
    const controller = new AbortController();
    const { attempt, at } = scripted();
    const run = settle(retrying(attempt, scope({ kind: 'turn', resumed: 1, signal: controller.signal })));
    await vi.advanceTimersByTimeAsync(100);
    controller.abort(new Error('user left'));
    await vi.advanceTimersByTimeAsync(0);
    expect(run.error).toBeInstanceOf(AbortError);
    expect((run.error as AbortError).cause).toEqual(new Error('user left'));
    expect(at).toHaveLength(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('an abort during the part of a Retry-After beyond the backoff ends the call at once', async () => {
    const controller = new AbortController();
    const asked = api(429, 'rate_limited', { retryAfterMs: 5_000 });
    const { attempt, at } = scripted(asked);
    const run = settle(retrying(attempt, scope({ signal: controller.signal })));
    await vi.advanceTimersByTimeAsync(100);
    controller.abort('why');
    await vi.advanceTimersByTimeAsync(0);
    expect(run.error).toBeInstanceOf(AbortError);
    expect((run.error as AbortError).cause).toBe('why');
    expect(at).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a re-open whose signal is already aborted waits for nothing and sends nothing', async () => {
    const { attempt, at } = scripted();
    const run = settle(
      retrying(attempt, scope({ kind: 'turn', resumed: 3, signal: AbortSignal.abort('gone') })),
    );
    await vi.advanceTimersByTimeAsync(0);
    expect(run.error).toBeInstanceOf(AbortError);
    expect((run.error as AbortError).cause).toBe('gone');
    expect(at).toHaveLength(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("the waits of a re-open and of a Retry-After's longer part leave no abort listener on the signal", async () => {
    const controller = new AbortController();
    const reopened = settle(retrying(scripted().attempt, scope({ resumed: 1, signal: controller.signal })));
    await vi.advanceTimersByTimeAsync(500);
    expect(reopened.value).toBe('done');
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    const asked = api(429, 'rate_limited', { retryAfterMs: 3_000 });
    const run = settle(retrying(scripted(asked).attempt, scope({ signal: controller.signal })));
    await vi.advanceTimersByTimeAsync(3_000);
    expect(run.value).toBe('done');
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('the keyed-call rule sees each failed attempt, and its error is what the run goes on with', async () => {
    const replaced = new TimeoutError('replaced');
    const seen: unknown[] = [];
    const rule = (error: unknown) => {
      seen.push(error);
      return seen.length === 2 ? api(400, 'final') : replaced;
    };
    const first = new ConnectionError('a');
    const run = settle(retrying(scripted(first, new ConnectionError('b')).attempt, scope({ rule })));
    await vi.advanceTimersByTimeAsync(500);
    expect(seen).toHaveLength(2);
    expect(seen[0]).toBe(first);
    expect((run.error as ApiError).code).toBe('final');
  });

  it('a run with a keyed-call rule numbers its attempts from 1, and onRetry is told the one that failed', async () => {
    const numbers: number[] = [];
    const failures = [new ConnectionError('a'), new ConnectionError('b')];
    const attempt = async (n: number) => {
      numbers.push(n);
      const error = failures.shift();
      if (error) throw error;
      return 'done';
    };
    const onRetry = vi.fn();
    const run = settle(retrying(attempt, scope({ rule: (error) => error }, { onRetry })));
    await vi.advanceTimersByTimeAsync(1_500);
    expect(run.value).toBe('done');
    expect(numbers).toEqual([1, 2, 3]);
    expect(onRetry.mock.calls.map(([info]) => info.attempt)).toEqual([1, 2]);
  });

  it("7.5 an answer is not resent when the wait would end past the interaction's deadline", async () => {
    const { attempt, at } = scripted(new TimeoutError('a'), new TimeoutError('b'));
    const run = settle(retrying(attempt, scope({ kind: 'answer', deadline: Date.now() + 1_200 })));
    await vi.advanceTimersByTimeAsync(1_200);
    expect(run.done).toBe(true);
    expect((run.error as Error).message).toBe('b');
    expect(at.map((t) => t - at[0]!)).toEqual([0, 500]);
  });
});

describe('429 through the client (fake timers)', () => {
  // ky loads with a client's first request; load it in real time, so fake time sees only the retry waits.
  beforeAll(async () => {
    await new Client({
      baseUrl: 'https://api.test',
      token: 't',
      fetch: fakeFetch(ok(skill())).fetch,
    }).skills.get(1);
  });

  it('7 a GET that gets 429 with Retry-After: 1 is retried after one second', async () => {
    const { fetch, requests } = fakeFetch(
      fail(429, 'rate_limited', null, { headers: { 'retry-after': '1' } }),
      ok({ items: [skill()], page: 1, size: 50, total: 1 }),
    );
    const client = new Client({ baseUrl: 'https://api.test', token: 't', fetch });
    const run = settle(client.skills.get(1));
    await vi.advanceTimersByTimeAsync(999);
    expect(requests).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(requests).toHaveLength(2);
    expect(run.done).toBe(true);
  });

  it('7 a create that gets 429 is retried too: it was not processed', async () => {
    const { fetch, requests } = fakeFetch(fail(429, 'rate_limited'), ok(skill(), {}, 201));
    const client = new Client({ baseUrl: 'https://api.test', token: 't', fetch });
    const run = settle(client.skills.create({ name: 'Tone', instructions: 'Be brief.' }));
    await vi.advanceTimersByTimeAsync(500);
    expect(requests.map((r) => r.method)).toEqual(['POST', 'POST']);
    expect(run.error).toBeUndefined();
  });

  it('a request maxRetryAfter overrides the client: a 429 asking 2 s fails at once under 1 s', async () => {
    const { fetch, requests } = fakeFetch(
      fail(429, 'rate_limited', null, { headers: { 'retry-after': '2' } }),
    );
    const client = new Client({ baseUrl: 'https://api.test', token: 't', fetch, maxRetryAfter: 10_000 });
    const run = settle(client.skills.get(1, { maxRetryAfter: 1_000 }));
    await vi.advanceTimersByTimeAsync(0);
    expect((run.error as ApiError).status).toBe(429);
    expect((run.error as ApiError).retryAfterMs).toBe(2_000);
    expect(requests).toHaveLength(1);
  });
});
