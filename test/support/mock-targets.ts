import { describe } from 'vitest';
import { Client, type ClientOptions } from '../../src/index.js';
import {
  type ConvoMock,
  createMock,
  type MockCredential,
  type MockOptions,
  startMockServer,
} from '../../src/mock/index.js';
import { eventually } from './leaks.js';
import { nodeServerAt } from './mock-server.js';
import { startedForSuite } from './started.js';

/** One request a client sent, as the wire saw it. */
export interface SentRequest {
  method: string;
  path: string;
  /** The `Idempotency-Key` header, if any. */
  key: string | null;
}

/** A mock reached one way, with what the reliability tests need around it. */
export interface MockTarget {
  /** `fetch`: the mock's fetch injected in-process; `http`: `startMockServer` on 127.0.0.1. */
  readonly name: 'fetch' | 'http';
  readonly mock: ConvoMock;
  readonly url: string;
  /** Every request the target's clients sent, in order; tests empty it between cases. */
  readonly requests: SentRequest[];
  /** A client for the first configured token, with short retry delays. */
  client(options?: Partial<ClientOptions>): Client;
  /** A request past the client (no checks), to see what the mock itself answers. */
  raw(method: string, path: string, init?: RawInit): Promise<RawReply>;
  /** Waits until no turn of the mock runs and (over HTTP) no connection to the server is open (15 s at most by default). */
  quiesce(ms?: number): Promise<void>;
  close(): Promise<void>;
}

/** Options of `MockTarget.raw`. */
export interface RawInit {
  /** A JSON body (a string is sent as is). */
  body?: unknown;
  /** The bearer token; the target's own by default, null for none. */
  token?: string | null;
  headers?: Record<string, string>;
}

/** What a raw request got: the status and the parsed body (the raw text when it is not JSON). */
export interface RawReply {
  status: number;
  headers: Headers;
  body: any;
}

function rawFor(url: string, fetch: FetchLike, defaultToken: string): MockTarget['raw'] {
  return async (method, path, init = {}) => {
    const headers = new Headers(init.headers);
    const token = init.token === undefined ? defaultToken : init.token;
    if (token !== null) headers.set('authorization', `Bearer ${token}`);
    let body: string | undefined;
    if (init.body !== undefined) {
      body = typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
      headers.set('content-type', 'application/json');
    }
    const response = await fetch(new URL(path, url), {
      method,
      headers,
      ...(body === undefined ? {} : { body }),
    });
    if (response.headers.get('content-type')?.startsWith('text/event-stream')) {
      // A stream's turn goes on by itself; the caller only wanted to know it was accepted.
      await response.body?.cancel();
      return { status: response.status, headers: response.headers, body: undefined };
    }
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {}
    return { status: response.status, headers: response.headers, body: parsed };
  };
}

/** The credential every target knows unless told otherwise. */
export const TOKEN = 'reliability-token';

/** Short pings so that slow turns stay alive under a short watchdog; a short interaction lifetime. */
const DEFAULTS: MockOptions = { pingMs: 50, interactionTtlMs: 5_000, tokens: [{ token: TOKEN }] };
/** How long `quiesce` waits by default: a hang guard, with room for a machine 10x slower or busy. */
const QUIESCE_MS = 15_000;

type FetchLike = (input: Request | URL | string, init?: RequestInit) => Promise<Response>;

function recording(base: FetchLike, requests: SentRequest[]): FetchLike {
  return (input, init) => {
    const request = input instanceof Request ? input : undefined;
    const headers = new Headers(init?.headers ?? request?.headers);
    const url = new URL(request?.url ?? String(input));
    requests.push({
      method: init?.method ?? request?.method ?? 'GET',
      path: url.pathname,
      key: headers.get('idempotency-key') ?? request?.headers.get('idempotency-key') ?? null,
    });
    return base(input, init);
  };
}

function clientFactory(url: string, fetch: FetchLike, defaults: { token: string }) {
  return (options: Partial<ClientOptions> = {}) =>
    new Client({ baseUrl: url, token: defaults.token, fetch, retryDelay: { min: 1, max: 20 }, ...options });
}

/** Resolves once the mock has no running turn; throws the running ones after `ms` (15 s by default). */
export function turnsEnded(mock: ConvoMock, ms = QUIESCE_MS): Promise<void> {
  return eventually(() => {
    const running = mock.store.turns().filter((turn) => turn.status === 'pending');
    return running.length === 0 ? undefined : `turns still running: ${running.map((t) => t.id).join(', ')}`;
  }, ms);
}

/** The mock's fetch injected into the client: no sockets at all. */
export async function fetchTarget(options: MockOptions = {}): Promise<MockTarget> {
  const mock = createMock({ ...DEFAULTS, ...options });
  const requests: SentRequest[] = [];
  const token = (options.tokens ?? DEFAULTS.tokens)?.[0]?.token ?? TOKEN;
  return {
    name: 'fetch',
    mock,
    url: mock.url,
    requests,
    client: clientFactory(mock.url, recording(mock.fetch, requests), { token }),
    raw: rawFor(mock.url, mock.fetch, token),
    quiesce: (ms = QUIESCE_MS) => turnsEnded(mock, ms),
    close: async () => mock.reset(),
  };
}

/**
 * The node:http server of `startMockServer` on 127.0.0.1, reached through the global fetch. The server
 * object is found among the process's handles so that its live connections can be counted: after a case,
 * idle keep-alive connections are closed and any connection still open is one a response left hanging.
 */
export async function httpTarget(options: MockOptions = {}): Promise<MockTarget> {
  const server = await startMockServer({ ...DEFAULTS, ...options, port: 0 });
  const requests: SentRequest[] = [];
  const token = (options.tokens ?? DEFAULTS.tokens)?.[0]?.token ?? TOKEN;
  const node = nodeServerAt(server.url);
  return {
    name: 'http',
    mock: server.mock,
    url: server.url,
    requests,
    client: clientFactory(server.url, recording(globalThis.fetch, requests), { token }),
    raw: rawFor(server.url, globalThis.fetch, token),
    quiesce: async (ms = QUIESCE_MS) => {
      await turnsEnded(server.mock, ms);
      await eventually(async () => {
        node.closeIdleConnections();
        const open = await new Promise<number>((resolve, reject) =>
          node.getConnections((error, count) => (error ? reject(error) : resolve(count))),
        );
        return open === 0 ? undefined : `${open} connection(s) to the mock server still open`;
      }, ms);
    },
    close: () => {
      server.mock.reset();
      return server.close();
    },
  };
}

/** Both targets the reliability suite runs through. */
export const MOCK_TARGETS = [
  { name: 'fetch', start: fetchTarget },
  { name: 'http', start: httpTarget },
] as const;

/** A target for the tests of one describe block: started before them (`fetchTarget` by default), closed after. */
export function useTarget(start: () => Promise<MockTarget> = fetchTarget): MockTarget {
  return startedForSuite(start, (target) => target.close());
}

/** One describe block per target of MOCK_TARGETS, titled `<title> via <name>`; `body` gets the started target. */
export function describeOnTargets(title: string, body: (target: MockTarget) => void): void {
  for (const { name, start } of MOCK_TARGETS) describe(`${title} via ${name}`, () => body(useTarget(start)));
}

/** Credentials a test configures, passed through to the mock. */
export type Credentials = readonly MockCredential[];
