import type * as z from 'zod/mini';
import { EnvelopeSchema, type Meta } from '../contract/envelope.js';
import { ValidationError } from '../errors.js';
import { apiFailure, fetchFailure, schemaFailure } from './errors.js';
import { hotSchema } from './hot-schema.js';
import { type RetryRule, type RetrySettings, withRetries } from './retry.js';

/** Where log lines go; every method optional. Lines carry no credential and no body. */
export interface Logger {
  /** Per-request detail. */
  debug?: ((message: string, fields?: Record<string, unknown>) => void) | undefined;
  /** Something the caller may want to know (a dropped event, a recovery). */
  warn?: ((message: string, fields?: Record<string, unknown>) => void) | undefined;
}

/** Options every SDK method takes as its last argument. */
export interface RequestOptions {
  /** Aborts the request (an `AbortError` is thrown). */
  signal?: AbortSignal | undefined;
  /** Milliseconds to wait for the response; overrides the client's `timeout`. */
  timeout?: number | undefined;
  /** Extra headers for this request. */
  headers?: Record<string, string> | undefined;
  /** Further attempts after the first, where the contract allows one; overrides the client's `maxRetries`. */
  maxRetries?: number | undefined;
}

/** The settings a transport runs with. */
export interface TransportSettings {
  baseUrl: string;
  token: string;
  fetch: ((input: Request | URL | string, init?: RequestInit) => Promise<Response>) | undefined;
  timeout: number;
  headers: Record<string, string>;
  retry: RetrySettings;
  logger: Logger | undefined;
}

/** One call of an endpoint. */
export interface Call<T> {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Path below `/api/v1/`, without a leading slash. */
  path: string;
  query?: Record<string, string | number | boolean | undefined> | undefined;
  body?: unknown;
  /** Schema of `data`. */
  schema: z.ZodMiniType<T>;
  /** Which failures may be repeated. */
  retry: RetryRule;
  headers?: Record<string, string> | undefined;
  options?: RequestOptions | undefined;
  /** No retry starts after this time (epoch ms), such as an interaction's deadline. */
  until?: number | undefined;
}

/** What a successful call returns: the validated `data` and the envelope's `meta`. */
export interface Result<T> {
  data: T;
  meta: Meta;
}

/** The one path every request takes: fetch, envelope, schema, typed result or typed error. */
export class Transport {
  readonly #settings: TransportSettings;
  readonly #base: URL;

  constructor(settings: TransportSettings) {
    this.#settings = settings;
    const base = settings.baseUrl.endsWith('/') ? settings.baseUrl : `${settings.baseUrl}/`;
    this.#base = new URL('api/v1/', base);
  }

  /** Sends `call`, repeating it where its rule allows, and returns its validated result. */
  request<T>(call: Call<T>): Promise<Result<T>> {
    const settings = this.retrySettings(call.options);
    const attempt = (n: number) => this.attempt(call, n);
    return withRetries(attempt, call.retry, settings, call.options?.signal, call.until);
  }

  /** The client's logger, if it has one. */
  get logger(): Logger | undefined {
    return this.#settings.logger;
  }

  /** The client's retry settings, with a request's own `maxRetries` applied. */
  retrySettings(options: RequestOptions | undefined): RetrySettings {
    const maxRetries = options?.maxRetries;
    return maxRetries === undefined ? this.#settings.retry : { ...this.#settings.retry, maxRetries };
  }

  /** Sends `call` once and returns the raw response (2xx), for callers that read the body themselves. */
  async open(call: Omit<Call<unknown>, 'schema' | 'retry'>, accept: string): Promise<Response> {
    const { response, done } = await this.#send(call, accept);
    if (!response.ok) {
      const body = await readBody(response).finally(done);
      throw apiFailure(response.status, body, response.headers.get('retry-after'));
    }
    done(); // the timeout covers a stream's headers; its body has its own watchdog
    return response;
  }

  /** Sends `call` once: a validated result or a typed error. */
  async attempt<T>(call: Call<T>, attempt = 1): Promise<Result<T>> {
    const { response, started, timeout, done } = await this.#send(call, 'application/json');
    let body: unknown;
    try {
      body = await readBody(response);
    } catch (error) {
      throw fetchFailure(error, call.options?.signal, timeout);
    } finally {
      done();
    }
    this.#settings.logger?.debug?.(`${call.method} /api/v1/${call.path} -> ${response.status}`, {
      status: response.status,
      attempt,
      ms: Math.round(performance.now() - started),
    });
    if (!response.ok) throw apiFailure(response.status, body, response.headers.get('retry-after'));
    const envelope = EnvelopeSchema.safeParse(body);
    if (!envelope.success) throw schemaFailure(envelope.error, body, response.status);
    const data = hotSchema(call.schema, envelope.data.data).safeParse(envelope.data.data);
    if (!data.success) throw schemaFailure(data.error, body, response.status, 'data');
    return { data: data.data, meta: envelope.data.meta };
  }

  /** Header names are case-insensitive: a later `Accept` replaces an earlier `accept`. */
  #headersFor(accept: string, json: boolean, ...extra: (Record<string, string> | undefined)[]): Headers {
    const headers = new Headers(this.#settings.headers);
    headers.set('authorization', `Bearer ${this.#settings.token}`);
    headers.set('accept', accept);
    if (json) headers.set('content-type', 'application/json');
    for (const more of extra)
      for (const [name, value] of Object.entries(more ?? {})) headers.set(name, value);
    return headers;
  }

  /**
   * Sends `call` once. The timeout runs until `done()` is called, so that it also covers reading a JSON
   * body. The fetch gets a URL and init, never a `Request`: undici holds a `Request`'s signal only weakly.
   */
  async #send(call: Omit<Call<unknown>, 'schema' | 'retry'>, accept: string) {
    const options = call.options ?? {};
    const timeout = options.timeout ?? this.#settings.timeout;
    const body = call.body === undefined ? undefined : serialize(call.body);
    const url = new URL(call.path, this.#base);
    for (const [key, value] of Object.entries(call.query ?? {}))
      if (value !== undefined) url.searchParams.set(key, String(value));
    const timer = new AbortController();
    const timeoutId = setTimeout(
      () => timer.abort(new DOMException(`no response within ${timeout} ms`, 'TimeoutError')),
      timeout,
    );
    const done = () => clearTimeout(timeoutId);
    const init: RequestInit = {
      method: call.method,
      headers: this.#headersFor(accept, body !== undefined, call.headers, options.headers),
      signal: options.signal ? AbortSignal.any([options.signal, timer.signal]) : timer.signal,
      ...(body === undefined ? {} : { body }),
    };
    const fetch = this.#settings.fetch ?? globalThis.fetch;
    const started = performance.now();
    try {
      options.signal?.throwIfAborted();
      const response = await fetch(url, init);
      return { response, started, timeout, done };
    } catch (error) {
      done();
      throw fetchFailure(error, options.signal, timeout);
    }
  }
}

/**
 * The request body as JSON text. Serialized here, before anything is sent, so that a value JSON cannot hold
 * (a BigInt, a cycle) is bad input, not a failure of the connection that would be retried.
 */
function serialize(body: unknown): string {
  try {
    return JSON.stringify(body);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ValidationError([{ field: '(body)', message: `must be serializable as JSON (${reason})` }]);
  }
}

/** The body as JSON when it parses, as text otherwise, `undefined` when empty. */
async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
