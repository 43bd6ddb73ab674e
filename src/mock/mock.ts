import { abortable, abortableBody } from './http/abortable.js';
import { FaultRegistry, type MockFaults } from './http/faults.js';
import { createMockService } from './http/service.js';
import { directiveModel } from './model/directive-model.js';
import type { FakeModel } from './model/model.js';
import type { MockCredential } from './state/credentials.js';
import { MockStore, type MockStoreView } from './state/store.js';
import type { MockClock } from './time/clock.js';
import { TurnEngine } from './turns/engine.js';

/** The origin documented for fetch injection; any origin reaches the mock the same way. */
export const MOCK_URL = 'http://convo.mock';

/** Options of `createMock`. */
export interface MockOptions {
  /** Credentials the mock accepts; one `mock-token` with every scope for user 1 when absent or empty. */
  tokens?: readonly MockCredential[] | undefined;
  /** Time source and timer, for timestamps, pings, waits and expiries; real time when absent. */
  clock?: MockClock | undefined;
  /** Silence before a stream `ping`, in ms; 15,000 when absent. */
  pingMs?: number | undefined;
  /** Lifetime of an interaction, in ms; 110,000 when absent. */
  interactionTtlMs?: number | undefined;
  /** The fake model; the directives of mock-conventions.md (`directiveModel`) when absent. */
  model?: FakeModel | undefined;
}

/** A fetch-compatible function: what a client takes as its injected `fetch`. */
export type MockFetch = (input: Request | URL | string, init?: RequestInit) => Promise<Response>;

/** One in-memory instance of the service. */
export interface ConvoMock {
  /**
   * Answers one request (any origin; only the path, method, headers and body matter). A dropped
   * connection (a `drop` fault) is `Response.error()`.
   */
  handle(request: Request): Promise<Response>;
  /**
   * `handle` as a fetch: inject it into a client with base URL `url`. A relative input resolves against it.
   * Like fetch, a dropped connection rejects with `TypeError('fetch failed')`, and an abort rejects the
   * pending call or errors the body being read.
   */
  fetch: MockFetch;
  /** `http://convo.mock`, the base URL to pair with `fetch`. */
  readonly url: string;
  /** Read-only inspection of the state. */
  readonly store: MockStoreView;
  /** Faults on purpose for the next requests. */
  readonly faults: MockFaults;
  /** Replaces the fake model for the next turns (until `reset`); the directive model again when undefined. */
  setModel(model: FakeModel | undefined): void;
  /**
   * How many times the turn of `key` actually ran: a replay does not run it again. Summed over every
   * credential, or only `token`'s when given.
   */
  runs(key: string, token?: string): number;
  /**
   * Back to the seeded state, as `createMock` left it: skills, chats, turns, interactions, idempotency keys
   * and run counts gone, ids from 1, running turns stopped (streams reading them end without a terminal
   * event), faults cleared, and the model the one `createMock` was given (the directive model when none),
   * whatever `setModel` installed. Kept: the credentials, the clock and its time, `pingMs` and
   * `interactionTtlMs`, and the fixtures (which never change).
   */
  reset(): void;
}

/** Creates a mock: `createMock()` accepts `mock-token` with every scope and answers with the directive model. */
export function createMock(options: MockOptions = {}): ConvoMock {
  const store = new MockStore({
    tokens: options.tokens,
    clock: options.clock,
    settings: {
      ...(options.pingMs !== undefined ? { pingMs: options.pingMs } : {}),
      ...(options.interactionTtlMs !== undefined ? { interactionTtlMs: options.interactionTtlMs } : {}),
    },
  });
  const seededModel = options.model ?? directiveModel;
  let model = seededModel;
  const engine = new TurnEngine(store, () => model);
  const faults = new FaultRegistry();
  const service = createMockService({ store, engine, faults });
  const handle = (request: Request) => service.handle(request);
  return {
    handle,
    // A client may call fetch(request, init): `new Request(request, init)` keeps the request and applies init.
    // Async, so that a bad input rejects the promise like fetch does instead of throwing.
    fetch: async (input, init) => {
      const target =
        typeof input === 'string' && !/^[a-z][a-z\d+.-]*:/i.test(input) ? new URL(input, MOCK_URL) : input;
      const request = new Request(target, init);
      // Like fetch, an abort before the response rejects with the signal's reason. The caller's own signal
      // is used, not request.signal, which undici ties to it only weakly (TOOLCHAIN.md).
      const signal = init?.signal ?? (input instanceof Request ? input.signal : undefined);
      const response = await (signal ? abortable(handle(request), signal) : handle(request));
      if (response.type === 'error') throw new TypeError('fetch failed');
      return signal ? abortableBody(response, signal) : response;
    },
    url: MOCK_URL,
    store,
    faults,
    setModel: (next) => {
      model = next ?? directiveModel;
    },
    runs: (key, token) => {
      const credentials = store
        .credentials()
        .filter((credential) => token === undefined || credential.token === token);
      return credentials.reduce((sum, credential) => sum + store.runCount(credential.id, key), 0);
    },
    reset: () => {
      engine.reset();
      faults.clear();
      store.reset();
      model = seededModel;
    },
  };
}
