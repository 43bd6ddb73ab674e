import { setupServer } from 'msw/node';
import { vi } from 'vitest';
import { Client, type ClientOptions } from '../../src/index.js';
import { type ConvoMock, createMock, type MockCredential, startMockServer } from '../../src/mock/index.js';
import { mswHandlers } from '../../src/mock/msw.js';
import { startCommandServer } from '../support/command-server.js';

/** The credentials every e2e target knows, by name; `flag` is the same credential for `convo-mock --token`. */
export const CREDENTIALS = {
  full: { token: 'full', flag: 'full' },
  fullSameUser: { token: 'full-b', flag: 'full-b' },
  coworker: { token: 'coworker', userId: 2, flag: 'coworker@2' },
  otherCompany: { token: 'other-co', userId: 4, flag: 'other-co@4' },
  skillsRead: { token: 'skills-ro', scopes: ['skills:read'], flag: 'skills-ro=skills:read' },
  noScope: { token: 'no-scope', scopes: [], flag: 'no-scope=' },
  chatOnly: {
    token: 'chat-only',
    scopes: ['chat:read', 'chat:write'],
    flag: 'chat-only=chat:read,chat:write',
  },
  /** Limited to an empty skills allowlist: only the in-process mock can set one up. */
  allowlisted: { token: 'allowlisted', allow: { skills: [] }, flag: undefined },
} as const satisfies Record<string, MockCredential & { flag: string | undefined }>;

/** A credential name of `CREDENTIALS`. */
export type CredentialName = keyof typeof CREDENTIALS;

const tokens: MockCredential[] = Object.values(CREDENTIALS).map(({ flag: _flag, ...credential }) =>
  structuredClone(credential),
) as MockCredential[];

/** What a raw request got back. */
export interface RawReply {
  status: number;
  headers: Headers;
  body: any;
}

/** A running mock reached one way; `mock` is there when the test can use the in-process controls. */
export interface Target {
  /** Which way the SDK reaches the mock. */
  name: string;
  /** The base URL clients use. */
  url: string;
  /** The in-process mock, absent for an external server. */
  mock: ConvoMock | undefined;
  /** A client for one of the known credentials. */
  client(credential?: CredentialName, options?: ClientOptions): Client;
  /** A request past the client's checks, to see what the mock itself answers; `token: null` sends none. */
  raw(
    path: string,
    init?: { method?: string; token?: string | null; body?: unknown; headers?: Record<string, string> },
  ): Promise<RawReply>;
  /** Frees the target. */
  close(): Promise<void>;
}

function rawFor(url: string, fetch: typeof globalThis.fetch): Target['raw'] {
  return async (path, init = {}) => {
    const headers: Record<string, string> = { ...init.headers };
    const token = init.token === undefined ? CREDENTIALS.full.token : init.token;
    if (token !== null) headers.authorization = `Bearer ${token}`;
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(new URL(path, url), {
      method: init.method ?? 'GET',
      headers,
      ...(init.body === undefined
        ? {}
        : { body: typeof init.body === 'string' ? init.body : JSON.stringify(init.body) }),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
  };
}

function clientFor(url: string, fetch: ClientOptions['fetch']) {
  return (credential: CredentialName = 'full', options: ClientOptions = {}) =>
    new Client({
      baseUrl: url,
      token: CREDENTIALS[credential].token,
      retryDelay: { min: 1, max: 20 },
      ...(fetch ? { fetch } : {}),
      ...options,
    });
}

/** Short pings, so that the ping tests need no long silence. */
const PING_MS = 50;
/** A short interaction lifetime, so that expiry is observable in a test. */
export const INTERACTION_TTL_MS = 1_500;

/**
 * Waits until the service lists no pending turn in `chatId`: after an interaction expired, its turn goes on
 * as if refused and ends, which is the event to wait for rather than the lifetime plus a guess. A hang
 * guard of the lifetime and 10 s more.
 */
export function turnEnded(t: Pick<Target, 'client'>, chatId: string): Promise<void> {
  return vi.waitFor(
    async () => {
      const page = await t.client().chats.messages(chatId);
      if (page.items.some((message) => message.status === 'pending'))
        throw new Error(`a turn still runs in ${chatId}`);
    },
    { timeout: INTERACTION_TTL_MS + 10_000, interval: 50 },
  );
}

/** In-process: the mock's fetch injected into the client. */
async function viaFetch(): Promise<Target> {
  const mock = createMock({ tokens, pingMs: PING_MS, interactionTtlMs: INTERACTION_TTL_MS });
  return {
    name: 'fetch',
    url: mock.url,
    mock,
    client: clientFor(mock.url, mock.fetch),
    raw: rawFor(mock.url, mock.fetch),
    close: async () => {},
  };
}

/** msw: the global fetch intercepted by the mock's msw handlers. */
async function viaMsw(): Promise<Target> {
  const mock = createMock({ tokens, pingMs: PING_MS, interactionTtlMs: INTERACTION_TTL_MS });
  const server = setupServer(...mswHandlers(mock));
  server.listen();
  return {
    name: 'msw',
    url: mock.url,
    mock,
    client: clientFor(mock.url, undefined),
    raw: rawFor(mock.url, (...args) => globalThis.fetch(...args)),
    close: async () => server.close(),
  };
}

/** Real HTTP: the node:http server on loopback. */
async function viaHttp(): Promise<Target> {
  const server = await startMockServer({
    port: 0,
    tokens,
    pingMs: PING_MS,
    interactionTtlMs: INTERACTION_TTL_MS,
  });
  return {
    name: 'http',
    url: server.url,
    mock: server.mock,
    client: clientFor(server.url, undefined),
    raw: rawFor(server.url, globalThis.fetch),
    close: server.close,
  };
}

/** The flags of mock-conventions.md for an external server: any free port, short pings and lifetimes, the suite's credentials. */
const COMMAND_FLAGS: readonly string[] = [
  '--port',
  '0',
  '--ping-ms',
  String(PING_MS),
  '--interaction-ttl-ms',
  String(INTERACTION_TTL_MS),
  ...Object.values(CREDENTIALS).flatMap((c) => (c.flag ? ['--token', c.flag] : [])),
];

/** An external server started from a command (`CONVO_MOCK_CMD`) following mock-conventions.md. */
export async function viaCommand(command: string): Promise<Target & { group: number }> {
  const server = await startCommandServer(command, COMMAND_FLAGS);
  return {
    name: 'external',
    url: server.url,
    mock: undefined,
    group: server.group,
    client: clientFor(server.url, undefined),
    raw: rawFor(server.url, globalThis.fetch),
    close: server.stop,
  };
}

/** The ways to reach a mock; with `CONVO_MOCK_CMD` set, the external server too. */
export const TARGETS: Array<{ name: string; start(): Promise<Target> }> = [
  { name: 'fetch', start: viaFetch },
  { name: 'msw', start: viaMsw },
  { name: 'http', start: viaHttp },
  ...(process.env.CONVO_MOCK_CMD
    ? [{ name: 'external', start: () => viaCommand(process.env.CONVO_MOCK_CMD as string) }]
    : []),
];
