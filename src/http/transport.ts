import type { KyInstance, Options } from 'ky';
import type * as z from 'zod/mini';
import { EnvelopeSchema, type Meta } from '../contract/envelope.js';
import { ValidationError } from '../errors.js';
import { apiFailure, fetchFailure, schemaFailure } from './errors.js';
import { type RetryRule, type RetrySettings, withRetries } from './retry.js';

/** Where log lines go; every method optional. Lines carry no credential and no body. */
export interface Logger {
  /** Per-request detail. */
  debug?(message: string, fields?: Record<string, unknown>): void;
  /** Something the caller may want to know (a dropped event, a recovery). */
  warn?(message: string, fields?: Record<string, unknown>): void;
}

/** Options every SDK method takes as its last argument. */
export interface RequestOptions {
  /** Aborts the request (an `AbortError` is thrown). */
  signal?: AbortSignal;
  /** Milliseconds to wait for the response; overrides the client's `timeout`. */
  timeout?: number;
  /** Extra headers for this request. */
  headers?: Record<string, string>;
  /** Further attempts after the first, where the contract allows one; overrides the client's `maxRetries`. */
  maxRetries?: number;
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

/**
 * ky is loaded by the first request, not on import: its feature checks build a `Request`, which makes Node
 * load its fetch implementation (undici), some 25 ms of every cold start. The first request loads that
 * anyway, through fetch itself.
 */
let kyModule: Promise<typeof import('ky')> | undefined;

/** The one path every request takes: fetch, envelope, schema, typed result or typed error. */
export class Transport {
  readonly #kyOptions: Options;
  #ky: Promise<KyInstance> | undefined;
  readonly #settings: TransportSettings;

  constructor(settings: TransportSettings) {
    this.#settings = settings;
    this.#kyOptions = {
      baseUrl: new URL('api/v1/', settings.baseUrl.endsWith('/') ? settings.baseUrl : `${settings.baseUrl}/`),
      headers: { ...settings.headers, authorization: `Bearer ${settings.token}`, accept: 'application/json' },
      retry: 0,
      throwHttpErrors: false,
      ...(settings.fetch ? { fetch: settings.fetch } : {}),
    };
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
    const { response } = await this.#send(call, accept);
    if (!response.ok)
      throw apiFailure(response.status, await readBody(response), response.headers.get('retry-after'));
    return response;
  }

  /** Sends `call` once: a validated result or a typed error. */
  async attempt<T>(call: Call<T>, attempt = 1): Promise<Result<T>> {
    const { response, started } = await this.#send(call, 'application/json');
    const options = call.options ?? {};
    const timeout = options.timeout ?? this.#settings.timeout;
    let body: unknown;
    try {
      body = await readBody(response);
    } catch (error) {
      throw fetchFailure(error, options.signal, timeout);
    }
    this.#settings.logger?.debug?.(`${call.method} /api/v1/${call.path} -> ${response.status}`, {
      status: response.status,
      attempt,
      ms: Math.round(performance.now() - started),
    });
    if (!response.ok) throw apiFailure(response.status, body, response.headers.get('retry-after'));
    const envelope = EnvelopeSchema.safeParse(body);
    if (!envelope.success) throw schemaFailure(envelope.error, body, response.status);
    const data = call.schema.safeParse(envelope.data.data);
    if (!data.success) throw schemaFailure(data.error, body, response.status, 'data');
    return { data: data.data, meta: envelope.data.meta };
  }

  #client(): Promise<KyInstance> {
    kyModule ??= import('ky');
    this.#ky ??= kyModule.then(({ default: ky }) => ky.create(this.#kyOptions));
    return this.#ky;
  }

  async #send(call: Omit<Call<unknown>, 'schema' | 'retry'>, accept: string) {
    const options = call.options ?? {};
    const timeout = options.timeout ?? this.#settings.timeout;
    const body = call.body === undefined ? undefined : serialize(call.body);
    const started = performance.now();
    try {
      const response = await (await this.#client())(call.path, {
        method: call.method,
        headers: {
          accept,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...call.headers,
          ...options.headers,
        },
        timeout,
        ...(body === undefined ? {} : { body }),
        ...(call.query ? { searchParams: definedOnly(call.query) } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      });
      return { response, started };
    } catch (error) {
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

function definedOnly(query: Record<string, string | number | boolean | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(query)) if (value !== undefined) out[key] = String(value);
  return out;
}
