import { envelopeSchema } from '../contract/envelope.js';
import type { Redactor } from '../contract/redact.js';
import type { ConvoError } from '../errors/index.js';
import { TelemetryGate } from '../telemetry/gate.js';
import { parseBody, readText } from './body.js';
import type { Call, Logger, RequestOptions, Result, Run, TransportSettings } from './call.js';
import { inSpan } from './call-span.js';
import { apiFailure, fetchFailure, schemaFailure } from './failures.js';
import { runBeforeError } from './hooks.js';
import { hotSchema } from './hot-schema.js';
import { attemptRule } from './keyed.js';
import { type RetrySettings, retrying } from './policy-run.js';
import { received } from './received.js';
import { queryString, requestHeaders, serialize } from './request-parts.js';
import { requestRetry } from './request-retry.js';
import { SendLoader } from './send-loader.js';

export type { Call, Logger, RequestOptions, Result } from './call.js';

/** A call as sending it needs it: without the schema of its `data`. */
type Sendable = Omit<Call<unknown>, 'schema'>;

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

/**
 * The one path every request takes: one exchange through ky (`send-once.ts`, one instance per client), its
 * bounds, the envelope, the schema, a typed result or a typed error, repeated as the policy allows.
 */
export class Transport {
  readonly #settings: TransportSettings;
  readonly #base: URL;
  /** `#base` as text: a call's URL is this plus its path, absolute, so that ky builds one `Request`, not three. */
  readonly #href: string;
  /** Sends one exchange through the client's ky instance, built with the first request. */
  readonly #send: SendLoader;
  /** Whether any call succeeded: until one did, a 404 says which URL it tried (a wrong `baseUrl` is likely). */
  #reached = false;
  /** The client's retry settings as a call without overrides uses them: built once, off the hot path. */
  readonly #retry: RetrySettings;
  /** Spans and metrics of the calls, when a provider is there. */
  readonly #telemetry: TelemetryGate;

  constructor(settings: TransportSettings) {
    this.#settings = settings;
    // Here, not in `send-loader.ts`: the Node builds make the file this `import()` names one of their own.
    this.#send = new SendLoader(settings, () => import('./send-once.js'));
    this.#retry = { ...settings.retry, timeoutMs: settings.timeout };
    // Without a base URL no call is sent (`SendLoader.load` throws `unset`): the placeholder only keeps the fields typed.
    const given = settings.baseUrl ?? 'http://unset';
    const base = given.endsWith('/') ? given : `${given}/`;
    this.#base = new URL('api/v1/', base);
    this.#href = this.#base.href;
    this.#telemetry = new TelemetryGate(settings.telemetry, this.#base, settings.redact);
  }

  /** The client's telemetry, for the spans of a streamed turn. */
  get telemetry(): TelemetryGate {
    return this.#telemetry;
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
   * The one entry of every exchange that may repeat: sends `call`, repeating it as the policy allows for
   * its kind (until `run.deadline`, with its kind's keyed-call rule), and returns its validated result.
   */
  request<T>(call: Call<T>, run?: Run): Promise<Result<T>> {
    if (!this.#telemetry.on()) return this.#request(call, run);
    return inSpan(this.#telemetry, call, run, (traced, tracedRun, status) =>
      this.#request(traced, tracedRun, status),
    );
  }

  /** `request`'s attempts, each a JSON exchange and its validated result (`status` told of it), repeated. */
  #request<T>(call: Call<T>, run: Run | undefined, status?: (code: number) => void): Promise<Result<T>> {
    const json = 'application/json';
    return this.#repeat(call, run, (n) =>
      this.#exchange(call, json, (sent) => this.#result(call, sent, n, status)),
    );
  }

  /**
   * `request` for a body its caller reads itself (a stream): the 2xx response, its body unread. The timeout
   * covers the headers; the body has its own watchdog.
   */
  open(call: Sendable, accept: string, run?: Run): Promise<Response> {
    return this.#repeat(call, run, () => this.#exchange(call, accept, (sent) => this.#opened(call, sent)));
  }

  /**
   * The retry entry both entries share: `attempt` repeated as the policy allows for the call's kind
   * (`policy-run.ts`), within the run's deadline, with its kind's keyed-call rule; `run.attempt` told of each.
   */
  #repeat<T>(call: Sendable, run: Run | undefined, attempt: (n: number) => Promise<T>): Promise<T> {
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

  /** The client's retry settings with a request's own applied, its numeric options checked (`request-retry.ts`). */
  retrySettings(options: RequestOptions | undefined): RetrySettings {
    return requestRetry(this.#retry, options);
  }

  /**
   * Sends `call` once and hands the response whose headers came to `then`. The call's timeout runs until
   * `sent.done()`, so that it also covers reading a JSON body; `sent.signal` (the caller's and the
   * timeout's) is for the body reader. The one frame between the retry loop and ky: `send` hands back ky's
   * own promise.
   */
  async #exchange<T>(call: Sendable, accept: string, then: (sent: Sent) => Promise<T>): Promise<T> {
    const options = call.options ?? {};
    // Outside the try below: the SDK failing to load its own code is no connection failure, and not retried.
    const send = this.#send.ready ?? (await this.#send.load());
    const timeout = options.timeout ?? this.#settings.timeout;
    const body = serialize(call.body);
    const headers = requestHeaders(accept, body !== undefined, call.headers, options.headers);
    const { signal, done } = bounds(options.signal, timeout);
    const started = performance.now();
    let response: Response;
    try {
      options.signal?.throwIfAborted();
      const url = this.#href + call.path + queryString(call.query);
      const got = await send({ url, method: call.method, headers, body, signal, hooks: options.hooks });
      response = received(got, this.#settings.redact);
    } catch (error) {
      done();
      throw this.#lost(error, options, timeout);
    }
    return then({ response, started, timeout, done, signal });
  }

  /** A stream's open: the 2xx response, its body unread, or the error its answer says. */
  async #opened(call: Sendable, sent: Sent): Promise<Response> {
    const { response } = sent;
    if (!response.ok)
      throw this.#fail(this.#apiFailure(call, response, await this.#body(call, sent)), call.options);
    sent.done(); // the timeout covers a stream's headers; its body has its own watchdog
    this.#reached = true;
    return response;
  }

  /** A JSON call's answer: its envelope and `data` validated, or the error its answer says. */
  async #result<T>(
    call: Call<T>,
    sent: Sent,
    attempt: number,
    status: ((code: number) => void) | undefined,
  ): Promise<Result<T>> {
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
    const envelope = envelopeSchema().safeParse(body);
    const redact = this.#settings.redact;
    if (!envelope.success)
      throw this.#fail(schemaFailure(envelope.error, body, response.status, '', redact), options);
    const data = hotSchema(call.schema, envelope.data.data).safeParse(envelope.data.data);
    if (!data.success)
      throw this.#fail(schemaFailure(data.error, body, response.status, 'data', redact), options);
    status?.(response.status);
    return { data: data.data, meta: envelope.data.meta, response };
  }

  /** The body of a sent call, read within its bounds (`maxResponseBytes`, its timeout, which ends here). */
  async #body(call: Sendable, sent: Sent): Promise<unknown> {
    const options = call.options;
    try {
      const text = await readText(
        sent.response,
        options?.maxResponseBytes ?? this.#settings.maxResponseBytes,
        sent.signal,
      );
      return parseBody(text);
    } catch (error) {
      throw this.#lost(error, options, sent.timeout);
    } finally {
      sent.done();
    }
  }

  /** What failed on the way (the connection, the caller's abort, the timeout, the body's bound), mapped. */
  #lost(error: unknown, options: RequestOptions | undefined, timeout: number): ConvoError {
    return this.#fail(fetchFailure(error, options?.signal, timeout, this.#settings.redact), options);
  }

  /** The error an answer that is no 2xx says; a 404 before any call succeeded names the URL it tried. */
  #apiFailure(call: Sendable, response: Response, body: unknown) {
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
}

/**
 * One signal for the caller's abort and the call's timeout, and `done` to let go of both. Not
 * `AbortSignal.any`: a composite signal is tracked through weak references for as long as the fetch may
 * follow it (a stream's whole life).
 */
function bounds(caller: AbortSignal | undefined, timeout: number): { signal: AbortSignal; done: () => void } {
  const controller = new AbortController();
  // Stryker disable OptionalChaining,ObjectLiteral,BooleanLiteral: `follow` is only added to a caller's signal, which aborts once
  const follow = () => controller.abort(caller?.reason);
  caller?.addEventListener('abort', follow, { once: true });
  // Stryker restore OptionalChaining,ObjectLiteral,BooleanLiteral
  const timeoutId = setTimeout(
    // Stryker disable next-line StringLiteral: only the name is read (`fetchFailure` words the TimeoutError)
    () => controller.abort(new DOMException(`no response within ${timeout} ms`, 'TimeoutError')),
    timeout,
  );
  // A stream's body has the caller's signal and its own watchdog: the call lets go of both here.
  const done = () => {
    clearTimeout(timeoutId);
    caller?.removeEventListener('abort', follow);
  };
  return { signal: controller.signal, done };
}
