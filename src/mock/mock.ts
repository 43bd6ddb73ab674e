import type { MockCredential } from './credentials.js';
import { createMockService } from './service.js';
import { type MockClock, MockStore, type MockStoreView } from './store.js';

/** The origin documented for fetch injection; any origin reaches the mock the same way. */
export const MOCK_URL = 'http://convo.mock';

/** Options of `createMock`. */
export interface MockOptions {
  /** Credentials the mock accepts; one `mock-token` with every scope for user 1 when absent or empty. */
  tokens?: readonly MockCredential[] | undefined;
  /** Time source, for `created_at` and expiries; `Date.now` when absent. */
  clock?: MockClock | undefined;
  /** Silence before a stream `ping`, in ms; 15,000 when absent. */
  pingMs?: number | undefined;
  /** Lifetime of an interaction, in ms; 110,000 when absent. */
  interactionTtlMs?: number | undefined;
}

/** A fetch-compatible function: what a client takes as its injected `fetch`. */
export type MockFetch = (input: Request | URL | string, init?: RequestInit) => Promise<Response>;

/** One in-memory instance of the service. */
export interface ConvoMock {
  /** Answers one request (any origin; only the path, method, headers and body matter). */
  handle(request: Request): Promise<Response>;
  /** `handle` as a fetch: inject it into a client with base URL `url`. A relative input resolves against it. */
  fetch: MockFetch;
  /** `http://convo.mock`, the base URL to pair with `fetch`. */
  readonly url: string;
  /** Read-only inspection of the state. */
  readonly store: MockStoreView;
  /** Back to the seeded state: resources gone, ids from 1; credentials and options kept. */
  reset(): void;
}

/** Creates a mock: `createMock()` accepts `mock-token` with every scope. */
export function createMock(options: MockOptions = {}): ConvoMock {
  const store = new MockStore({
    tokens: options.tokens,
    clock: options.clock,
    settings: {
      ...(options.pingMs !== undefined ? { pingMs: options.pingMs } : {}),
      ...(options.interactionTtlMs !== undefined ? { interactionTtlMs: options.interactionTtlMs } : {}),
    },
  });
  const service = createMockService({ store });
  const handle = (request: Request) => service.handle(request);
  return {
    handle,
    // ky calls fetch(request, init): `new Request(request, init)` keeps the request and applies init.
    // Async, so that a bad input rejects the promise like fetch does instead of throwing.
    fetch: async (input, init) => {
      const target =
        typeof input === 'string' && !/^[a-z][a-z\d+.-]*:/i.test(input) ? new URL(input, MOCK_URL) : input;
      const request = new Request(target, init);
      // Like fetch, an abort before the response rejects with the signal's reason. The caller's own signal
      // is used, not request.signal, which undici ties to it only weakly (TOOLCHAIN.md).
      const signal = init?.signal ?? (input instanceof Request ? input.signal : undefined);
      return signal ? abortable(handle(request), signal) : handle(request);
    },
    url: MOCK_URL,
    store,
    reset: () => store.reset(),
  };
}

// Settles with `response`, or rejects with the signal's reason if it aborts first.
function abortable(response: Promise<Response>, signal: AbortSignal): Promise<Response> {
  signal.throwIfAborted();
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    response.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
