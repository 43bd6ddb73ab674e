import type { KyInstance, Options as KyOptions } from 'ky';
import type * as z from 'zod/mini';
import { EnvelopeSchema, type Meta } from '../contract/envelope.js';
import type { Redactor } from '../contract/redact.js';
import { ConvoError, RedirectError, ValidationError } from '../errors/index.js';
import { TelemetryGate } from '../telemetry/gate.js';
import type { TelemetryOptions } from '../telemetry/options.js';
import { readText } from './body.js';
import { apiFailure, fetchFailure, schemaFailure } from './failures.js';
import { checkHeader, checkHeaders } from './headers.js';
import { type Hooks, type KyHooks, kyHooks, runBeforeError, withBeforeRetry, withinSignal } from './hooks.js';
import { hotSchema } from './hot-schema.js';
import { attemptRule } from './keyed.js';
import type { OperationKind } from './policy.js';
import { type RetryScope, type RetrySettings, retrying } from './policy-run.js';
import { checkOption } from './validate.js';

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

/**
 * What the contract needs of ky, set once on the client's instance, which performs every exchange and runs
 * the `beforeRequest` and `afterResponse` hooks. Four of its defaults are the SDK's own. `retry: 0`:
 * the policy table repeats what the contract allows (`request`), for every kind, under a turn's key; ky
 * re-sends only when an `afterResponse` hook returns `ky.retry()` (`HOOK_RETRY`, set only then: a retry
 * limit above 0 makes ky clone every `Request`). `timeout: false`: the call's `timeout` also covers reading
 * the body, which the transport reads itself to bound it (`maxResponseBytes`). `throwHttpErrors: false`: an
 * error's body is the contract's envelope, read here within `maxResponseBytes`. `redirect: 'manual'`: a
 * redirect is a `RedirectError`, never followed.
 */
const KY_OPTIONS = {
  retry: 0,
  timeout: false,
  throwHttpErrors: false,
  redirect: 'manual',
} as const satisfies KyOptions;

/** ky's retry where an `afterResponse` hook may return `ky.retry()`: that re-send, once, and no other. */
const HOOK_RETRY = { limit: 1, shouldRetry: () => false };

/** One exchange whose headers came: its response, and the bounds of reading its body. */
interface Sent {
  response: Response;
  /** When it was sent (`performance.now()`). */
  started: number;
  timeout: number;
  /** Ends the timeout. */
  done: () => void;
  /** The caller's signal and the timeout's, for the body reader. */
  signal: AbortSignal;
}

/** The one path every request takes: ky (one instance per client), envelope, schema, typed result or typed error. */
export class Transport {
  readonly #settings: TransportSettings;
  readonly #base: URL;
  /** `#base` as text: a call's URL is this plus its path, absolute, so that ky builds one `Request`, not three. */
  readonly #href: string;
  /** The client's ky instance, built once, with the first request. */
  #ky: KyInstance | undefined;
  /** Whether the client has ky hooks (`beforeRequest`, `afterResponse`), which ky runs without the signal. */
  #hooked = false;
  /** The prototype of what ky's `ky.retry()` returns: the one other value an `afterResponse` hook may return. */
  #retryMarker: object = {};
  /** Whether any call succeeded: until one did, a 404 says which URL it tried (a wrong `baseUrl` is likely). */
  #reached = false;
  /** The client's retry settings as a call without overrides uses them: built once, off the hot path. */
  readonly #retry: RetrySettings;
  /** Spans and metrics of the calls, when a provider is there. */
  readonly #telemetry: TelemetryGate;

  constructor(settings: TransportSettings) {
    this.#settings = settings;
    this.#retry = { ...settings.retry, timeoutMs: settings.timeout };
    // Without a base URL no call is sent (`#create` throws `unset`): the placeholder only keeps the fields typed.
    const given = settings.baseUrl ?? 'http://unset';
    const base = given.endsWith('/') ? given : `${given}/`;
    this.#base = new URL('api/v1/', base);
    this.#href = this.#base.href;
    this.#telemetry = new TelemetryGate(settings.telemetry, this.#base, settings.redact);
  }

  /**
   * The one entry of every exchange that may repeat: sends `call`, repeating it as the policy allows for
   * its kind (until `run.deadline`, with its kind's keyed-call rule), and returns its validated result.
   */
  request<T>(call: Call<T>, run?: Run): Promise<Result<T>> {
    const telemetry = this.#telemetry;
    if (telemetry.on()) return this.#traced(telemetry, call, run);
    return this.#repeat(call, run, (n) => this.#attempt(call, n));
  }

  /** `request` inside the call's CLIENT span, its trace context in the request's headers. */
  async #traced<T>(gate: TelemetryGate, call: Call<T>, run: Run | undefined): Promise<Result<T>> {
    // Telemetry never fails a call: a recorder that could not load leaves it unrecorded.
    const telemetry = await gate.load().catch(() => undefined);
    if (!telemetry) return this.#repeat(call, run, (n) => this.#attempt(call, n));
    const path = call.path + (call.query ? queryString(call.query) : '');
    const span = telemetry.call({ ...call, name: call.name ?? `${call.method} ${call.path}`, path });
    const traced = { ...call, headers: span.headers(call.headers) };
    try {
      const result = await this.#repeat(traced, { ...run, attempt: (n) => span.attempt(n) }, async (n) => {
        const result = await this.#attempt(traced, n);
        span.status(result.response.status);
        return result;
      });
      span.end(undefined, result.data);
      return result;
    } catch (error) {
      span.end(error);
      throw error;
    }
  }

  /** The client's telemetry, for the spans of a streamed turn. */
  get telemetry(): TelemetryGate {
    return this.#telemetry;
  }

  /**
   * `request` for a body its caller reads itself (a stream): the 2xx response, its body unread. The timeout
   * covers the headers; the body has its own watchdog.
   */
  open(call: Omit<Call<unknown>, 'schema'>, accept: string, run?: Run): Promise<Response> {
    return this.#repeat(call, run, () => this.#open(call, accept));
  }

  #repeat<T>(call: Omit<Call<unknown>, 'schema'>, run: Run | undefined, attempt: (n: number) => Promise<T>) {
    const options = call.options;
    const told = run?.attempt;
    const observed = told
      ? (n: number) => {
          told(n);
          return attempt(n);
        }
      : attempt;
    return retrying(observed, {
      deadline: run?.deadline,
      resumed: run?.resumed,
      kind: call.kind,
      settings: run?.settings ?? this.retrySettings(options),
      signal: options?.signal,
      rule: attemptRule(call.kind, this.#settings.logger, call.path),
    });
  }

  /** The client's logger, if it has one. */
  get logger(): Logger | undefined {
    return this.#settings.logger;
  }

  /** The client's redactor: what builds an error from a service's answer masks the token with. */
  get redact(): Redactor {
    return this.#settings.redact;
  }

  /**
   * The client's retry settings, with a request's own `maxRetries`, `maxRetryAfter`, `timeout` and
   * `beforeRetry` hooks applied. Every call asks for them before it sends anything, so this is where a
   * request's numeric options are checked: one out of its range throws a `ValidationError`.
   */
  retrySettings(options: RequestOptions | undefined): RetrySettings {
    const retry = this.#retry;
    if (!options) return retry;
    checkOption('timeout', options.timeout);
    checkOption('maxRetries', options.maxRetries);
    checkOption('maxRetryAfter', options.maxRetryAfter);
    checkOption('maxResponseBytes', options.maxResponseBytes);
    const hooks = options.hooks?.beforeRetry;
    if (
      options.maxRetries === undefined &&
      options.maxRetryAfter === undefined &&
      options.timeout === undefined &&
      !hooks?.length
    )
      return retry;
    return {
      ...retry,
      maxRetries: options.maxRetries ?? retry.maxRetries,
      maxRetryAfterMs: options.maxRetryAfter ?? retry.maxRetryAfterMs,
      timeoutMs: options.timeout ?? retry.timeoutMs,
      onRetry: withBeforeRetry(retry.onRetry, hooks),
    };
  }

  async #open(call: Omit<Call<unknown>, 'schema'>, accept: string): Promise<Response> {
    const sent = await this.#send(call, accept);
    const { response } = sent;
    if (!response.ok)
      throw this.#fail(this.#apiFailure(call, response, await this.#body(call, sent)), call.options);
    sent.done(); // the timeout covers a stream's headers; its body has its own watchdog
    this.#reached = true;
    return response;
  }

  /** Sends `call` once: a validated result or a typed error. */
  async #attempt<T>(call: Call<T>, attempt: number): Promise<Result<T>> {
    const sent = await this.#send(call, 'application/json');
    const { response } = sent;
    const options = call.options;
    const body = await this.#body(call, sent);
    this.#settings.logger?.debug?.(`${call.method} /api/v1/${call.path} -> ${response.status}`, {
      status: response.status,
      attempt,
      ms: Math.round(performance.now() - sent.started),
    });
    if (!response.ok) throw this.#fail(this.#apiFailure(call, response, body), options);
    this.#reached = true;
    const envelope = EnvelopeSchema.safeParse(body);
    const redact = this.#settings.redact;
    if (!envelope.success)
      throw this.#fail(schemaFailure(envelope.error, body, response.status, '', redact), options);
    const data = hotSchema(call.schema, envelope.data.data).safeParse(envelope.data.data);
    if (!data.success)
      throw this.#fail(schemaFailure(data.error, body, response.status, 'data', redact), options);
    return { data: data.data, meta: envelope.data.meta, response };
  }

  /**
   * Builds the client's ky instance (`KY_OPTIONS`) and its headers. ky is imported by the first request: a
   * browser app loads it in a chunk of its own, after the page, and a process that never sends a request
   * does not parse it (nor Node's fetch, which `Headers` loads). An import that failed is tried again by the
   * next call.
   */
  async #create(): Promise<KyInstance> {
    if (this.#settings.unset) throw this.#settings.unset;
    let ky: typeof import('ky').default;
    try {
      ky = (await import('ky')).default;
    } catch (error) {
      throw new ConvoError(`could not load ky: ${error instanceof Error ? error.message : String(error)}`, {
        cause: error,
      });
    }
    this.#retryMarker = Object.getPrototypeOf(ky.retry()) as object;
    const settings = this.#settings;
    const headers = new Headers(settings.headers);
    headers.set('authorization', `Bearer ${settings.token}`);
    headers.set('accept', 'application/json');
    const hooks = kyHooks(settings.hooks, this.#retryMarker);
    this.#hooked = hooks !== undefined;
    const fetch = settings.fetch;
    this.#ky ??= ky.create({
      ...KY_OPTIONS,
      // As a plain object (its names lower-cased by `Headers`): ky merges two plain objects by spreading them,
      // where a `Headers` on either side costs it two more `Headers` a call (see `requestHeaders`).
      headers: Object.fromEntries(headers),
      // Only when there are some: ky merges the defaults into each call's options, hooks included.
      ...(hooks && { hooks, retry: hooks.afterResponse.length ? HOOK_RETRY : 0 }),
      // Called as a plain function (ky calls it as a method), so that a detached `window.fetch` works.
      ...(fetch ? { fetch: (input: Request | URL | string, init?: RequestInit) => fetch(input, init) } : {}),
    });
    return this.#ky;
  }

  /** The body of a sent call, read within its bounds (`maxResponseBytes`, its timeout, which ends here). */
  async #body(call: Omit<Call<unknown>, 'schema'>, sent: Sent): Promise<unknown> {
    const options = call.options;
    try {
      const text = await readText(
        sent.response,
        options?.maxResponseBytes ?? this.#settings.maxResponseBytes,
        sent.signal,
      );
      return parseBody(text);
    } catch (error) {
      throw this.#fail(fetchFailure(error, options?.signal, sent.timeout, this.#settings.redact), options);
    } finally {
      sent.done();
    }
  }

  #apiFailure(call: Omit<Call<unknown>, 'schema' | 'kind'>, response: Response, body: unknown) {
    const notFound =
      response.status === 404
        ? { url: `${call.method} ${new URL(call.path, this.#base)}`, fresh: !this.#reached }
        : undefined;
    return apiFailure(response.status, body, response.headers, notFound, this.#settings.redact);
  }

  /** The error after the client's and the request's `beforeError` hooks. */
  #fail(error: ConvoError, options: RequestOptions | undefined): ConvoError {
    const hooks = this.#settings.hooks?.beforeError;
    const own = options?.hooks?.beforeError;
    return runBeforeError(runBeforeError(error, hooks), own);
  }

  /**
   * Sends `call` once through ky. The timeout runs until `done()` is called, so that it also covers reading
   * a JSON body; `signal` (the caller's and the timeout's) is for the body reader.
   */
  async #send(call: Omit<Call<unknown>, 'schema' | 'kind'>, accept: string): Promise<Sent> {
    const options = call.options ?? {};
    // Outside the try below: the SDK failing to load its own code is no connection failure, and not retried.
    const ky = this.#ky ?? (await this.#create());
    const timeout = options.timeout ?? this.#settings.timeout;
    const body = call.body === undefined ? undefined : serialize(call.body);
    const headers = requestHeaders(accept, body !== undefined, call.headers, options.headers);
    // One signal for the caller's abort and the timeout, without `AbortSignal.any`: a composite signal is
    // tracked through weak references for as long as the fetch may follow it (a stream's whole life).
    const controller = new AbortController();
    const signal = controller.signal;
    const caller = options.signal;
    const follow = () => controller.abort(caller?.reason);
    caller?.addEventListener('abort', follow, { once: true });
    const timeoutId = setTimeout(
      () => controller.abort(new DOMException(`no response within ${timeout} ms`, 'TimeoutError')),
      timeout,
    );
    // A stream's body has the caller's signal and its own watchdog: the call lets go of both here.
    const done = () => {
      clearTimeout(timeoutId);
      caller?.removeEventListener('abort', follow);
    };
    const init: KyOptions = { method: call.method, headers };
    const hooks: KyHooks | undefined = kyHooks(options.hooks, this.#retryMarker);
    const hooked = this.#hooked || hooks !== undefined;
    // Where no hook sees ky's Request, `unpacked` sends `body` itself: ky's copy would only be wrapped in a
    // stream nobody reads.
    if (body !== undefined && hooked) init.body = body;
    if (hooks) {
      init.hooks = hooks;
      if (hooks.afterResponse.length) init.retry = HOOK_RETRY;
    }
    // A `beforeRequest` hook may hand ky another Request, body included: that one goes out as it is.
    if (!this.#settings.hooks?.beforeRequest?.length && !hooks?.beforeRequest.length)
      init.fetch = unpacked(this.#settings.fetch, body, signal);
    else init.signal = signal;
    const started = performance.now();
    try {
      options.signal?.throwIfAborted();
      const url = this.#href + call.path + (call.query ? queryString(call.query) : '');
      // ky awaits a hook without watching the signal: the call's own bounds are applied here.
      const response = await (hooked ? withinSignal(ky(url, init), signal) : ky(url, init));
      // An injected fetch (or a hook) may hand back anything.
      if (!(response instanceof Response))
        throw new TypeError('the fetch resolved to something not a Response');
      if (isRedirect(response)) {
        response.body?.cancel().catch(() => {});
        const location = this.#settings.redact(response.headers.get('location') ?? '');
        throw new RedirectError(response.status, location);
      }
      return { response, started, timeout, done, signal };
    } catch (error) {
      done();
      throw this.#fail(fetchFailure(error, options.signal, timeout, this.#settings.redact), options);
    }
  }
}

/**
 * ky's `fetch` for a call whose Request no hook replaces: it sends the Request ky built (its URL, method,
 * headers as the hooks left them, redirect mode) as a URL and init, with `body` as text and the call's
 * `signal`. Handed the Request itself, fetch would copy its body through a stream, and ky would then cancel
 * the drained stream, which throws an error it catches; given to ky, the signal would be combined with ky's
 * own (`AbortSignal.any`, weakly linked by undici). Their cost is in BENCHMARKS.md ("The shared harness").
 * `fetch` is the client's, else the global one at call time (msw replaces it).
 */
function unpacked(fetch: TransportSettings['fetch'], body: string | undefined, signal: AbortSignal) {
  return (request: Request | URL | string, extra?: RequestInit) => {
    const send = fetch ?? globalThis.fetch;
    if (!(request instanceof Request)) return send(request, extra);
    return send(request.url, {
      ...extra,
      method: request.method,
      headers: request.headers,
      body: body ?? null,
      signal,
      redirect: request.redirect,
    });
  };
}

/** A 3xx, or what a browser shows of one under `redirect: 'manual'` (an opaque redirect, status 0). */
function isRedirect(response: Response): boolean {
  return response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400);
}

/**
 * A call's own headers over the client's (set on the ky instance): checked first, so that a value fetch would
 * refuse, or that would split the request, is a `ValidationError` before anything is sent.
 */
function requestHeaders(
  accept: string,
  json: boolean,
  own: Record<string, string> | undefined,
  extra: Record<string, string> | undefined,
): Headers | Record<string, string> {
  for (const name in own)
    checkHeader(name === 'idempotency-key' ? 'idempotencyKey' : 'headers', name, own[name]);
  checkHeaders('headers', extra);
  const mine: Record<string, string> = {};
  if (accept !== 'application/json') mine.accept = accept;
  if (json) mine['content-type'] = 'application/json';
  // A plain object, as the client's headers (`#create`), unless the caller's names may differ from these in
  // case only (`Headers` then merges them as fetch would).
  if (!own && !extra) return mine;
  const headers = new Headers(mine);
  for (const more of [own, extra]) for (const name in more) headers.set(name, more[name] as string);
  return headers;
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
function parseBody(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** `?name=value&...` of the defined values of `query`, or `''` when none is defined. */
function queryString(query: Record<string, string | number | boolean | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query))
    if (value !== undefined) params.append(key, String(value));
  const text = params.toString();
  return text ? `?${text}` : '';
}
