import type * as z from 'zod/mini';
import { ErrorBodySchema } from '../contract/envelope.js';
import { plainIssues } from '../contract/issues.js';
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

/** Maps what fetch threw to the SDK's error classes. */
export function fetchFailure(
  error: unknown,
  signal: AbortSignal | undefined,
  timeoutMs: number | false,
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
  return new ConnectionError(`the connection failed: ${reason}${inBrowser() ? BROWSER_HINT : ''}`, { cause });
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
export function apiError(init: ApiErrorInit): ApiError {
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
 * request's are never copied). A 404 that does not look like the contract's, or that a client gets before
 * any call succeeded, names the URL it tried: a wrong `baseUrl` is likely.
 */
export function apiFailure(
  status: number,
  body: unknown,
  headers: Headers,
  notFound?: NotFoundAt | undefined,
): ConvoError {
  const retryAfterMs = parseRetryAfter(headers.get('retry-after'));
  const parsed = ErrorBodySchema.safeParse(body);
  const suffix =
    notFound && (notFound.fresh || !parsed.success)
      ? ` (${notFound.url}: if that URL is wrong, baseUrl should be the service's origin and any path prefix before /api/v1)`
      : '';
  if (!parsed.success) {
    const text = bareText(status, body);
    if (text === undefined) return schemaFailure(parsed.error, body, status);
    return apiError({
      status,
      code: bareCode(status),
      message: `${text}${suffix}`,
      data: undefined,
      requestId: undefined,
      errorDetails: undefined,
      retryAfterMs,
      headers,
    });
  }
  const { message_code, message, data, meta } = parsed.data;
  const advice = ADVICE[message_code];
  const text = advice ? `${message ?? message_code} (${advice})` : (message ?? message_code);
  return apiError({
    status,
    code: message_code,
    message: `${text}${suffix}`,
    data,
    requestId: meta?.request_id,
    errorDetails: meta?.error_details,
    retryAfterMs,
    headers,
  });
}

/** The statuses a proxy, gateway or load balancer answers with on its own: 408, 502, 503, 504. */
const GATEWAY_STATUSES: ReadonlySet<number> = new Set([408, 502, 503, 504]);

/** The `code` of an `ApiError` whose response had no contract error body: `http_<status>`. */
export function bareCode(status: number): string {
  return `http_${status}`;
}

/**
 * Whether `error` is a bare 408, 502, 503 or 504: a proxy's, gateway's or load balancer's answer, with no
 * contract error body (so no `message_code` and no `retry_action`).
 */
export function isGatewayFailure(error: ApiError): boolean {
  return GATEWAY_STATUSES.has(error.status) && error.code === bareCode(error.status);
}

/**
 * What a non-contract error body says, or `undefined` when it is a contract body gone wrong: no body, text
 * (an HTML page by its title), or at a gateway status a JSON body without `message_code` (an API gateway's
 * own, such as `{"message": "Endpoint request timed out"}`).
 */
function bareText(status: number, body: unknown): string | undefined {
  if (body === undefined || body === '') return 'the response had no error body';
  if (typeof body === 'string') return htmlTitle(body) ?? body.slice(0, 200);
  if (GATEWAY_STATUSES.has(status) && typeof body === 'object' && body !== null && !('message_code' in body))
    return JSON.stringify(body).slice(0, 200);
  return undefined;
}

/** An HTML page (a proxy's error page) by its title, looked for in its head; `undefined` for other text. */
function htmlTitle(text: string): string | undefined {
  const head = text.slice(0, 4096);
  if (!/^\s*<(?:!doctype\s+html|html)[\s>]/i.test(head)) return undefined;
  const title = /<title[^>]*>([^<]*)<\/title>/i.exec(head)?.[1]?.trim().slice(0, 200);
  return `${title || 'an HTML page'} (an HTML page, not the service's error body: a proxy or gateway answered)`;
}

/** A `ResponseValidationError` from a zod failure, naming the first mismatching path. */
export function schemaFailure(
  error: z.core.$ZodError,
  body: unknown,
  status: number,
  prefix = '',
): ConvoError {
  const [first] = plainIssues(error.issues);
  const field = first?.field === '(body)' ? '' : (first?.field ?? '');
  const path = [prefix, field].filter(Boolean).join('.');
  return new ResponseValidationError(first?.message ?? 'is invalid', { path, body, status });
}
