import type * as z from 'zod/mini';
import type { Meta } from '../contract/envelope.js';
import type { Redactor } from '../contract/redact.js';
import type { ValidationError } from '../errors/index.js';
import type { TelemetryOptions } from '../telemetry/options.js';
import type { Hooks } from './hooks.js';
import type { OperationKind } from './policy.js';
import type { RetryScope, RetrySettings } from './policy-run.js';

// The shapes of a call through the transport: its options, its settings, what it returns.

/** Where log lines go; every method optional. Lines carry no credential and no body. */
export interface Logger {
  /** Per-request detail. */
  debug?: ((message: string, fields?: Record<string, unknown>) => void) | undefined;
  /** Progress worth a line at the default verbosity of most apps. */
  info?: ((message: string, fields?: Record<string, unknown>) => void) | undefined;
  /** Something the caller may want to know (a dropped event, a recovery). */
  warn?: ((message: string, fields?: Record<string, unknown>) => void) | undefined;
  /** A failure the caller may not see otherwise. */
  error?: ((message: string, fields?: Record<string, unknown>) => void) | undefined;
}

/** Options every SDK method takes as its last argument. */
export interface RequestOptions {
  /** Aborts the request (an `AbortError` is thrown). */
  signal?: AbortSignal | undefined;
  /** Milliseconds to wait for the response, 1 to 2^31-1; overrides the client's `timeout`. */
  timeout?: number | undefined;
  /** Extra headers for this request. */
  headers?: Record<string, string> | undefined;
  /** Further attempts after the first, where the contract allows one, 0 to 10; overrides the client's `maxRetries`. */
  maxRetries?: number | undefined;
  /** Largest response body read, in decoded bytes, from 1; overrides the client's `maxResponseBytes`. */
  maxResponseBytes?: number | undefined;
  /** Hooks of this request, run after the client's. */
  hooks?: Hooks | undefined;
  /** Longest `Retry-After` to honour, in ms, 0 to 2^31-1; overrides the client's `maxRetryAfter`. */
  maxRetryAfter?: number | undefined;
}

/** The settings a transport runs with. */
export interface TransportSettings {
  /** Absent only with `unset`. */
  baseUrl: string | undefined;
  /** Absent only with `unset`. */
  token: string | undefined;
  /** What the client lacks (a base URL, a token): every call fails with it, before anything is sent. */
  unset?: ValidationError | undefined;
  fetch: ((input: Request | URL | string, init?: RequestInit) => Promise<Response>) | undefined;
  timeout: number;
  headers: Record<string, string>;
  retry: Omit<RetrySettings, 'timeoutMs'>;
  logger: Logger | undefined;
  maxResponseBytes: number;
  hooks: Hooks | undefined;
  /** Masks the token in every error built from a response (`redactorOf([token])`). */
  redact: Redactor;
  /** The client's `telemetry` option, checked (`telemetry/`): spans and metrics of each call. */
  telemetry?: TelemetryOptions | undefined;
}

/** One call of an endpoint. */
export interface Call<T> {
  /** The endpoint's name in the contract's table (`chats.get`): the name of the call's span. */
  name?: string | undefined;
  /** The chat the path names, for the call's span. */
  chatId?: string | undefined;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Path below `/api/v1/`, without a leading slash. */
  path: string;
  query?: Record<string, string | number | boolean | undefined> | undefined;
  body?: unknown;
  /** Schema of `data`. */
  schema: z.ZodMiniType<T>;
  /** What the call is, for the retry policy. */
  kind: OperationKind;
  headers?: Record<string, string> | undefined;
  options?: RequestOptions | undefined;
}

/**
 * How one call of `Transport.request` or `open` runs, beyond its kind: its deadline, the resume it re-opens,
 * and its retry settings when the caller has read them already (a stream, once for all its opens).
 */
export type Run = Pick<RetryScope, 'deadline' | 'resumed'> & {
  settings?: RetrySettings | undefined;
  /** Told of each attempt, from 1, as it starts (the call's span counts resends). */
  attempt?: ((n: number) => void) | undefined;
};

/** What a successful call returns: the validated `data`, the envelope's `meta` and the raw response. */
export interface Result<T> {
  data: T;
  meta: Meta;
  /** The response, its body already read. */
  response: Response;
}
