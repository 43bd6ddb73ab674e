import { readEnv } from './env.js';
import { ValidationError } from './errors.js';
import type { RetryInfo } from './http/retry.js';
import { type Logger, Transport } from './http/transport.js';
import { Actions } from './resources/actions.js';
import { Chats } from './resources/chats.js';
import { Skills } from './resources/skills.js';
import { Turns } from './resources/turns.js';

/** Options of `new Client()`. */
export interface ClientOptions {
  /** The service's origin (and any path prefix) before `/api/v1`; default `CONVO_BASE_URL`. */
  baseUrl?: string | undefined;
  /** The bearer credential; default `CONVO_API_TOKEN`. Never logged, serialized or shown in errors. */
  token?: string | undefined;
  /** A fetch to send requests with, such as `createMock().fetch`; default the global fetch. */
  fetch?: ((input: Request | URL | string, init?: RequestInit) => Promise<Response>) | undefined;
  /** Milliseconds to wait for a response (default 60,000; synchronous turns wait longer). */
  timeout?: number | undefined;
  /** Further attempts after the first, where the contract says repeating is safe (default 2). */
  maxRetries?: number | undefined;
  /** Backoff bounds between attempts, in ms (default 500 to 8,000). */
  retryDelay?: { min?: number | undefined; max?: number | undefined } | undefined;
  /** Called before each retry. */
  onRetry?: ((info: RetryInfo) => void) | undefined;
  /** Headers sent with every request. */
  headers?: Record<string, string> | undefined;
  /** Where to log requests and recoveries; nothing is logged without one. */
  logger?: Logger | undefined;
}

/** The default response timeout of ordinary calls. */
const DEFAULT_TIMEOUT_MS = 60_000;

/** The client of the Conversational AI Service API v1. */
export class Client {
  /** The base URL requests go to. */
  readonly baseUrl: string;
  /** Skills: reusable instructions (4.1). */
  readonly skills: Skills;
  /** Chats, their messages, and the catalog (4.2). */
  readonly chats: Chats;
  /** Turns: synchronous and streamed sends, cancellation (4.3, 4.4, 4.6). */
  readonly turns: Turns;
  /** The raw answer endpoints of interactions, and cancel (4.5, 4.6). */
  readonly actions: Actions;

  constructor(options: ClientOptions = {}) {
    const baseUrl = options.baseUrl ?? readEnv('CONVO_BASE_URL');
    const token = options.token ?? readEnv('CONVO_API_TOKEN');
    if (!baseUrl) throw configError('baseUrl', 'is required (or set CONVO_BASE_URL)');
    if (!URL.canParse(baseUrl)) throw configError('baseUrl', 'must be an absolute URL');
    if (!token) throw configError('token', 'is required (or set CONVO_API_TOKEN)');
    this.baseUrl = baseUrl;
    const transport = new Transport({
      baseUrl,
      token,
      fetch: options.fetch,
      timeout: options.timeout ?? DEFAULT_TIMEOUT_MS,
      headers: options.headers ?? {},
      logger: options.logger,
      retry: {
        maxRetries: options.maxRetries ?? 2,
        minDelayMs: options.retryDelay?.min ?? 500,
        maxDelayMs: options.retryDelay?.max ?? 8_000,
        onRetry: options.onRetry,
      },
    });
    this.skills = new Skills(transport);
    this.chats = new Chats(transport);
    this.actions = new Actions(transport);
    this.turns = new Turns(transport, this.actions);
  }

  /** What `JSON.stringify(client)` shows: the base URL, never the credential. */
  toJSON(): { baseUrl: string } {
    return { baseUrl: this.baseUrl };
  }
}

function configError(field: string, message: string): ValidationError {
  return new ValidationError([{ field, message }]);
}
