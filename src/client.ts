import type { ElicitationValidator } from './contract/elicitation.js';
import { redactorOf } from './contract/redact.js';
import { ValidationError } from './errors/index.js';
import { loggerFromEnv, redactingLogger } from './http/console-logger.js';
import { CLIENT_DEFAULTS as DEFAULTS } from './http/defaults.js';
import { readEnv } from './http/env.js';
import { checkHeader, checkHeaders } from './http/headers.js';
import { guardOnRetry, type Hooks, withBeforeRetry } from './http/hooks.js';
import type { RetryInfo } from './http/policy-run.js';
import { type Logger, Transport } from './http/transport.js';
import { checkOption } from './http/validate.js';
import { Actions } from './resources/actions.js';
import { Chats } from './resources/chats.js';
import { Skills } from './resources/skills.js';
import { Turns } from './resources/turns.js';
import { checkTelemetry, type TelemetryOptions } from './telemetry/options.js';

/** Options of `new Client()`. */
export interface ClientOptions {
  /** The service's origin (and any path prefix) before `/api/v1`; default `CONVO_BASE_URL`. */
  baseUrl?: string | undefined;
  /** The bearer credential; default `CONVO_API_TOKEN`. Never logged, serialized or shown in errors. */
  token?: string | undefined;
  /** A fetch to send requests with, such as `createMock().fetch`; default the global fetch. */
  fetch?: ((input: Request | URL | string, init?: RequestInit) => Promise<Response>) | undefined;
  /** Milliseconds to wait for a response, 1 to 2^31-1 (default 60,000; synchronous turns wait longer). */
  timeout?: number | undefined;
  /** Further attempts after the first, where the contract says repeating is safe: 0 to 10 (default 2). */
  maxRetries?: number | undefined;
  /** Backoff bounds between attempts, in ms, each 0 to 2^31-1 (default 500 to 8,000); `max` caps every wait. */
  retryDelay?: { min?: number | undefined; max?: number | undefined } | undefined;
  /** Called before each retry. */
  onRetry?: ((info: RetryInfo) => void) | undefined;
  /**
   * Longest `Retry-After` to honour, in ms, 0 to 2^31-1 (default 60,000): a server asking for longer gets the
   * error at once.
   */
  maxRetryAfter?: number | undefined;
  /** Headers sent with every request. */
  headers?: Record<string, string> | undefined;
  /** Where to log requests and recoveries; default the console at the level `CONVO_LOG` names, else none. */
  logger?: Logger | undefined;
  /** Largest response body read, in bytes after decompression, from 1 (default 32 MiB); past it `ResponseTooLargeError`. */
  maxResponseBytes?: number | undefined;
  /**
   * Largest body one connection of a streamed turn delivers, in bytes, 1 to 2^29 (default 64 MiB); past it
   * `TurnTooLargeError`. A call's `maxTurnBytes` overrides it.
   */
  maxTurnBytes?: number | undefined;
  /** Hooks run on every request (ky's `beforeRequest`, `afterResponse`; the SDK's `beforeRetry`, `beforeError`). */
  hooks?: Hooks | undefined;
  /**
   * Checks elicitation answers against `requested_schema` before they are sent. Default: `jsonSchemaValidator`
   * in Node, Deno and Bun; none in a bundle (browser, edge worker), where only the shape is checked and the
   * service checks the schema, unless it is passed here.
   */
  elicitationValidator?: ElicitationValidator | undefined;
  /**
   * OpenTelemetry traces and metrics of every call, turn and interaction (docs/observability.md): on when a
   * provider is registered with `@opentelemetry/api` or given here; `propagate: false` sends no trace
   * context; prompts and answers only with `captureContent`.
   */
  telemetry?: TelemetryOptions | undefined;
}

/** The client of the Conversational AI Service API v1. */
export class Client {
  /**
   * The base URL requests go to: the option, else `CONVO_BASE_URL` as read at construction; `''` when
   * neither was set (the client then builds, and its first call fails with a `ValidationError`).
   */
  readonly baseUrl: string;
  /** Skills: reusable instructions (4.1). */
  readonly skills: Skills;
  /** Chats, their messages, and the catalog (4.2). */
  readonly chats: Chats;
  /** Turns: synchronous and streamed sends, cancellation (4.3, 4.4, 4.6). */
  readonly turns: Turns;
  /** The raw answer endpoints of interactions, and cancel (4.5, 4.6). */
  readonly actions: Actions;
  readonly #options: ClientOptions;

  /**
   * A client of `options`. A value given (or in the environment) that is wrong throws a `ValidationError`
   * here; a base URL or token missing from both does not, so that a module building its client can load
   * where the service's settings are absent (`next build`, a test that never calls): every call then fails
   * with a `ValidationError` naming the setting (`CONVO_BASE_URL`, `CONVO_API_TOKEN`), before anything is sent.
   */
  constructor(options: ClientOptions = {}) {
    const baseUrl = options.baseUrl ?? readEnv('CONVO_BASE_URL');
    const token = options.token ?? readEnv('CONVO_API_TOKEN');
    if (baseUrl) checkBaseUrl(baseUrl);
    if (token) checkHeader('token', 'authorization', token);
    checkHeaders('headers', options.headers);
    checkNumbers(options);
    const telemetry = checkTelemetry(options.telemetry);
    this.baseUrl = baseUrl ?? '';
    this.#options = options;
    // One redactor of the token for every error and log line the client makes from what a service answered.
    const redact = redactorOf([token]);
    const transport = new Transport({
      baseUrl,
      token,
      // Missing settings fail every call (the first missing one named), not the construction.
      unset: !baseUrl
        ? configError('baseUrl', 'is required (or set CONVO_BASE_URL)')
        : !token
          ? configError('token', 'is required (or set CONVO_API_TOKEN)')
          : undefined,
      redact,
      fetch: options.fetch,
      timeout: options.timeout ?? DEFAULTS.timeout,
      headers: options.headers ?? {},
      logger: redactingLogger(options.logger ?? loggerFromEnv(), redact),
      maxResponseBytes: options.maxResponseBytes ?? DEFAULTS.maxResponseBytes,
      hooks: options.hooks,
      telemetry,
      retry: {
        maxRetries: options.maxRetries ?? DEFAULTS.maxRetries,
        minDelayMs: options.retryDelay?.min ?? DEFAULTS.retryDelayMin,
        maxDelayMs: options.retryDelay?.max ?? DEFAULTS.retryDelayMax,
        maxRetryAfterMs: options.maxRetryAfter ?? DEFAULTS.maxRetryAfter,
        onRetry: withBeforeRetry(guardOnRetry(options.onRetry), options.hooks?.beforeRetry),
      },
    });
    this.skills = new Skills(transport);
    this.chats = new Chats(transport);
    this.actions = new Actions(transport);
    this.turns = new Turns(transport, this.actions, options.elicitationValidator, options.maxTurnBytes);
  }

  /**
   * A new client with `overrides` over this client's options (a longer timeout, other headers, hooks); the
   * options not overridden are shared. Each client has its own connection settings, so build it once.
   */
  withOptions(overrides: ClientOptions): Client {
    return new Client({ ...this.#options, ...overrides });
  }

  /** What `JSON.stringify(client)` shows: the base URL, never the credential. */
  toJSON(): { baseUrl: string } {
    return { baseUrl: this.baseUrl };
  }
}

/**
 * `baseUrl` is the origin and any path prefix before `/api/v1`, which the SDK adds itself, with no userinfo
 * (`user:password@`: the token is the credential, and a URL is quoted in errors). A base URL that
 * already ends in `/api/v1` (as other SDKs' base URLs end in `/v1`) is refused with the value to pass, rather
 * than rewritten: what `client.baseUrl` and every error show is then exactly what is requested.
 */
function checkBaseUrl(baseUrl: string): void {
  const url = URL.canParse(baseUrl) ? new URL(baseUrl) : undefined;
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    throw configError('baseUrl', 'must be an absolute URL (http or https)');
  // Not quoted: the URL holds a credential, which would then be in every error and log line.
  if (url.username || url.password)
    throw configError('baseUrl', 'must not hold a user name or password: pass the credential as token');
  const path = url.pathname.replace(/\/+$/, '');
  if (path.endsWith('/api/v1')) {
    url.pathname = path.slice(0, -'/api/v1'.length) || '/';
    const fixed = url.href.replace(/\/$/, '');
    throw configError('baseUrl', `must not end in /api/v1 (the client adds it): pass ${fixed}`);
  }
}

/** Every numeric option, in its range (`OPTION_RANGES`), before anything can be sent. */
function checkNumbers(options: ClientOptions): void {
  checkOption('timeout', options.timeout);
  checkOption('maxRetries', options.maxRetries);
  checkOption('retryDelay.min', options.retryDelay?.min);
  checkOption('retryDelay.max', options.retryDelay?.max);
  checkOption('maxRetryAfter', options.maxRetryAfter);
  checkOption('maxResponseBytes', options.maxResponseBytes);
  checkOption('maxTurnBytes', options.maxTurnBytes);
}

function configError(field: string, message: string): ValidationError {
  return new ValidationError([{ field, message }]);
}
