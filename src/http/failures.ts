import type * as z from 'zod/mini';
import { MOCK_CODES } from '../contract/codes.js';
import { type ErrorDetails, errorBodySchema } from '../contract/envelope.js';
import { errorDataSchemas } from '../contract/error-data.js';
import { plainIssues } from '../contract/issues.js';
import { NO_REDACTION, type Redactor, redactJson } from '../contract/redact.js';
import {
  AbortError,
  ApiError,
  type ApiErrorInit,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  ConnectionError,
  ConvoError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ResponseValidationError,
  TimeoutError,
  UnprocessableEntityError,
} from '../errors/index.js';
import { parseRetryAfter } from './retry-after.js';

/** Maps what fetch threw to the SDK's error classes; `redact` masks the client's token in the reason shown. */
export function fetchFailure(
  error: unknown,
  signal: AbortSignal | undefined,
  timeoutMs: number | false,
  redact: Redactor = NO_REDACTION,
): ConvoError {
  if (error instanceof ConvoError) return error;
  if (signal?.aborted)
    return new AbortError('the request was aborted by its signal', { cause: signal.reason });
  if (error instanceof Error && error.name === 'TimeoutError') {
    return new TimeoutError(`no response within ${timeoutMs} ms`);
  }
  // Keep only the low-level cause: a wrapping error may hold the request, and with it the credential.
  // ky wraps fetch's own TypeError in a NetworkError: look through it.
  const raw = error instanceof Error && error.name === 'NetworkError' ? error.cause : error;
  const cause = raw instanceof Error && raw.cause instanceof Error ? raw.cause : raw;
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new ConnectionError(`the connection failed: ${redact(reason)}${inBrowser() ? BROWSER_HINT : ''}`, {
    cause,
  });
}

/** A browser hides why a fetch failed before any response; these are the usual reasons. */
const BROWSER_HINT =
  " (in a browser this is most often CORS, the service not allowing this page's origin, or the network being down: see the console)";

function inBrowser(): boolean {
  return typeof (globalThis as { document?: unknown }).document === 'object';
}

/** What to do about the codes whose right reaction is not obvious from their name. */
const ADVICE: Partial<Record<string, string>> = {
  api_v1_action_result_unknown:
    'the decision may have been applied: do not resend it; follow the stream or list the messages',
  api_v1_action_not_pending:
    'already answered, claimed by another request, or of unknown outcome: do not retry',
  api_v1_action_not_found: 'the interaction does not exist, has expired, or belongs to another credential',
  api_v1_turn_in_progress: "the key's turn is still running: repeat with the same key later",
  api_v1_chat_busy: 'the chat runs another turn (data.message_id): wait for it or cancel it',
};

/** The `ApiError` subclass of each status integrators look for first; other 5xx are `InternalServerError`. */
const BY_STATUS: Partial<Record<number, new (init: ApiErrorInit) => ApiError>> = {
  400: BadRequestError,
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
  409: ConflictError,
  422: UnprocessableEntityError,
  429: RateLimitError,
};

/** An `ApiError` of the class its status calls for. */
function apiError(init: ApiErrorInit): ApiError {
  const Class = BY_STATUS[init.status] ?? (init.status >= 500 ? InternalServerError : ApiError);
  return new Class(init);
}

/** Where a 404 came from: the request's method and URL, and whether no call of the client succeeded yet. */
export interface NotFoundAt {
  url: string;
  fresh: boolean;
}

/**
 * Builds the error of a non-2xx response from its parsed body and its headers (kept on the error; the
 * request's are never copied). A body without a `message_code` (a gateway's problem details, an HTML page,
 * text, other JSON) is an `ApiError` of its status too, code `http_<status>`; one with a `message_code` that
 * breaks the contract is a `ResponseValidationError`. A 404 that does not look like the contract's, or that
 * a client gets before any call succeeded, names the URL it tried: a wrong `baseUrl` is likely. `redact`
 * masks the client's token in every string the error carries, however the service echoed it.
 */
export function apiFailure(
  status: number,
  body: unknown,
  headers: Headers,
  notFound?: NotFoundAt | undefined,
  redact: Redactor = NO_REDACTION,
): ConvoError {
  const retryAfterMs = parseRetryAfter(headers.get('retry-after'));
  const parsed = errorBodySchema().safeParse(body);
  const suffix =
    notFound && (notFound.fresh || !parsed.success)
      ? redact(
          ` (${notFound.url}: if that URL is wrong, baseUrl should be the service's origin and any path prefix before /api/v1)`,
        )
      : '';
  const shownHeaders = redactHeaders(headers, redact);
  if (!parsed.success) {
    if (typeof body === 'object' && body !== null && 'message_code' in body)
      return schemaFailure(parsed.error, body, status, '', redact);
    return apiError({
      status,
      code: bareCode(status),
      message: `${bareText(body, redact)}${suffix}`,
      data: typeof body === 'object' ? redactJson(body, redact) : undefined,
      requestId: undefined,
      errorDetails: undefined,
      retryAfterMs,
      headers: shownHeaders,
    });
  }
  const { message_code, message, data, meta } = parsed.data;
  // A code whose `data` the contract shapes: `error.is(code)` narrows `data` to that shape, so a body
  // that breaks it is a broken answer, not an ApiError whose `data` would throw where it is read. The
  // mock's own codes (its 422's field list) are its reading, not the contract: a service may shape them
  // otherwise.
  const schemas = errorDataSchemas();
  const dataSchema =
    Object.hasOwn(schemas, message_code) && !(MOCK_CODES as readonly string[]).includes(message_code)
      ? schemas[message_code as keyof typeof schemas]
      : undefined;
  const checked = dataSchema?.safeParse(data);
  if (checked && !checked.success) return schemaFailure(checked.error, body, status, 'data', redact);
  const advice = ADVICE[message_code];
  const said = redact(message ?? message_code);
  const text = advice ? `${said} (${advice})` : said;
  const fields = status === 422 ? namedFields(data, redact) : '';
  // The fields first; what the service said, when it said something, after them.
  const named = fields && (message === undefined ? fields : `${fields} (${text})`);
  return apiError({
    status,
    code: redact(message_code),
    message: `${named || text}${suffix}`,
    data: redactJson(data, redact),
    requestId: meta?.request_id === undefined ? undefined : redact(meta.request_id),
    errorDetails: redactJson(meta?.error_details, redact) as ErrorDetails | undefined,
    retryAfterMs,
    headers: shownHeaders,
  });
}

/**
 * The statuses a proxy, gateway or load balancer answers with on its own: 408, 502, 503, 504. A bare 500
 * is the service's own failure (its request arrived), so not one of them.
 */
const GATEWAY_STATUSES: ReadonlySet<number> = new Set([408, 502, 503, 504]);

/** The `code` of an `ApiError` whose response had no contract error body: `http_<status>`. */
function bareCode(status: number): string {
  return `http_${status}`;
}

/**
 * Whether `error` is a bare 408, 502, 503 or 504: a proxy's, gateway's or load balancer's answer, with no
 * contract error body (so no `message_code` and no `retry_action`).
 */
export function isGatewayFailure(error: ApiError): boolean {
  return GATEWAY_STATUSES.has(error.status) && error.code === bareCode(error.status);
}

/** The longest text of a non-contract body an error message quotes (a title, a detail, a text body). */
const MAX_QUOTED = 200;

/** How many of the fields a 422 names its message lists, and the longest name or problem it quotes. */
const MAX_FIELDS = 5;
const MAX_FIELD_CHARS = 100;

/**
 * `text` as an error message may quote it: control characters (a terminal's escapes, line breaks that
 * would forge log lines) become spaces, the token is masked, then it is cut at `max` characters (masked
 * first, so that no cut leaves a part of the token).
 */
function quoted(text: string, redact: Redactor, max: number): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point.
  return redact(text.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').trim()).slice(0, max);
}

/**
 * What a body without a `message_code` says: none, text (an HTML page by its title), problem details
 * (RFC 9457: `title` and `detail`), or other JSON as it came, each bounded.
 */
function bareText(body: unknown, redact: Redactor): string {
  if (body === undefined || body === '') return 'the response had no error body';
  if (typeof body === 'string') return htmlTitle(body, redact) ?? quoted(body, redact, MAX_QUOTED);
  const problem = problemText(body, redact);
  if (problem) return problem;
  return quoted(JSON.stringify(redactJson(body, redact)), NO_REDACTION, MAX_QUOTED);
}

/** The `title` and `detail` of problem details (RFC 9457), as `title: detail`; `undefined` without either. */
function problemText(body: unknown, redact: Redactor): string | undefined {
  const { title, detail } = (body ?? {}) as { title?: unknown; detail?: unknown };
  const parts = [title, detail].filter((part): part is string => typeof part === 'string' && part !== '');
  return parts.length ? parts.map((part) => quoted(part, redact, MAX_QUOTED)).join(': ') : undefined;
}

/**
 * The fields a 422's `data` names (`[{ field, message }]`, as the mock answers a body its schemas refuse),
 * as `field: problem; ...`, at most `MAX_FIELDS` of them; `''` when it names none.
 */
function namedFields(data: unknown, redact: Redactor): string {
  if (!Array.isArray(data)) return '';
  const named = (data as ({ field?: unknown; message?: unknown } | null)[]).filter(
    (item): item is { field: string; message?: unknown } => typeof item?.field === 'string',
  );
  const shown = named.slice(0, MAX_FIELDS).map(({ field, message }) => {
    const name = quoted(field, redact, MAX_FIELD_CHARS);
    return typeof message === 'string' ? `${name}: ${quoted(message, redact, MAX_FIELD_CHARS)}` : name;
  });
  const more = named.length > MAX_FIELDS ? ` (and ${named.length - MAX_FIELDS} more)` : '';
  return `${shown.join('; ')}${more}`;
}

/** An HTML page (a proxy's error page) by its title, looked for in its head; `undefined` for other text. */
function htmlTitle(text: string, redact: Redactor): string | undefined {
  const head = text.slice(0, 4096);
  if (!/^\s*<(?:!doctype\s+html|html)[\s>]/i.test(head)) return undefined;
  const title = quoted(/<title[^>]*>([^<]*)<\/title>/i.exec(head)?.[1] ?? '', redact, MAX_QUOTED);
  return `${title || 'an HTML page'} (an HTML page, not the service's error body: a proxy or gateway answered)`;
}

/**
 * The response's headers as an error keeps them: a copy with the token masked in each value (a header whose
 * name holds it is left out: `[redacted]` is no header name).
 */
function redactHeaders(headers: Headers, redact: Redactor): Headers {
  const shown = new Headers();
  for (const [name, value] of headers) if (redact(name) === name) shown.append(name, redact(value));
  return shown;
}

/**
 * A `ResponseValidationError` from a zod failure, naming the first mismatching path; `redact` masks the
 * client's token in the path, the problem (which may quote a value received) and the body kept.
 */
export function schemaFailure(
  error: z.core.$ZodError,
  body: unknown,
  status: number,
  prefix = '',
  redact: Redactor = NO_REDACTION,
): ConvoError {
  const [first] = plainIssues(error.issues);
  const field = first?.field === '(body)' ? '' : (first?.field ?? '');
  const path = redact([prefix, field].filter(Boolean).join('.'));
  return new ResponseValidationError(redact(first?.message ?? 'is invalid'), {
    path,
    body: redactJson(body, redact),
    status,
  });
}
