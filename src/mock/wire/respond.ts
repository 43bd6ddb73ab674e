import type { ErrorData, KnownCode, MessageCode, MockCode } from '../../contract/codes.js';
import type { ErrorDetails, RetryAction } from '../../contract/envelope.js';
import { ERROR_DATA_SCHEMAS } from '../../contract/error-data.js';
import { plainIssues } from '../../contract/issues.js';

/** `meta.page`, `meta.size` and `meta.total` of a list (2.1). */
export interface PageMeta {
  /** Page number, from 1. */
  page: number;
  /** Page size. */
  size: number;
  /** Items across all pages. */
  total: number;
}

/** Options of a successful response. */
export interface SuccessOptions {
  /** HTTP status; 200 by default, 201 on creation. */
  status?: number;
  /** Human-readable text. */
  message?: string;
  /** Paging of a list. */
  page?: PageMeta;
}

/** A JSON response; every answer of the mock goes through here so the content type is always the same. */
function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  });
}

/** Options of `errorResponse`: the fields of the contract's error body (section 7) and `Retry-After`. */
export interface ErrorResponseOptions<C extends KnownCode | MockCode | (string & {})> {
  /** HTTP status, 400 to 599. */
  status: number;
  /** `message_code`: one the contract names (completed by the editor), or any string a service may send. */
  code: C;
  /** `message`; the code when absent. */
  message?: string | undefined;
  /** `data`, of the shape the code documents (`ErrorDataByCode`); null when absent. */
  data?: ErrorData<C> | undefined;
  /** `meta.error_details.retry_action`: `retry` (the request never left, repeat it) or `check_status`. */
  retryAction?: RetryAction | undefined;
  /** More of `meta.error_details` (outage details); `retryAction` is set over them. */
  errorDetails?: ErrorDetails | undefined;
  /** The `Retry-After` header, in whole seconds. */
  retryAfter?: number | undefined;
  /** `meta.request_id`; a random UUID when absent. */
  requestId?: string | undefined;
}

/**
 * What is wrong with `data` (null when absent) as the `data` of an error body with `code`, by the shape the
 * contract gives that code (`ERROR_DATA_SCHEMAS`): `undefined` when it fits or the code has no shape. The
 * client refuses a body that breaks it, so the mock never sends one, whoever asks for it.
 */
export function errorDataProblem(code: string, data: unknown): string | undefined {
  if (!Object.hasOwn(ERROR_DATA_SCHEMAS, code)) return undefined;
  const checked = ERROR_DATA_SCHEMAS[code as keyof typeof ERROR_DATA_SCHEMAS].safeParse(data);
  if (checked.success) return undefined;
  const [first] = plainIssues(checked.error.issues);
  const field = first && first.field !== '(body)' ? `data.${first.field}` : 'data';
  return `${code} needs the data the contract gives it: ${field} ${first?.message ?? 'is invalid'}`;
}

/**
 * A response with the contract's error body, `{ status: "error", message, message_code, data, meta:
 * { request_id, error_details? } }`: what the mock answers, for an integrator's own msw handler or
 * injected fetch. `errorResponse({ status: 503, code: 'api_v1_service_unavailable', retryAction: 'retry',
 * retryAfter: 1 })` is an outage the client retries after a second.
 */
export function errorResponse<C extends KnownCode | MockCode | (string & {})>(
  options: ErrorResponseOptions<C>,
): Response {
  const { status, retryAfter } = options;
  if (!Number.isInteger(status) || status < 400 || status > 599)
    throw new Error(`errorResponse: status must be an integer from 400 to 599, not ${status}`);
  if (retryAfter !== undefined && !(Number.isInteger(retryAfter) && retryAfter >= 0))
    throw new Error(`errorResponse: retryAfter must be a whole number of seconds from 0, not ${retryAfter}`);
  const problem = errorDataProblem(options.code, options.data ?? null);
  if (problem) throw new Error(`errorResponse: ${problem}`);
  return errorBody(options);
}

/** The error body of section 7, unchecked: the mock's own failures (a fault may answer any status). */
function errorBody(options: ErrorResponseOptions<MessageCode>): Response {
  const { status, code, retryAfter } = options;
  const details =
    options.retryAction === undefined
      ? options.errorDetails
      : { ...options.errorDetails, retry_action: options.retryAction };
  return json(
    status,
    {
      status: 'error',
      message: options.message ?? code,
      message_code: code,
      data: options.data ?? null,
      meta: {
        request_id: options.requestId ?? crypto.randomUUID(),
        ...(details ? { error_details: details } : {}),
      },
    },
    retryAfter === undefined ? {} : { 'retry-after': String(retryAfter) },
  );
}

/** The success envelope of 2.1: `status`, `message`, `message_code: api_v1_ok`, `data`, `meta`. */
export function success(data: unknown, options: SuccessOptions = {}): Response {
  return json(options.status ?? 200, {
    status: 'success',
    message: options.message ?? 'OK',
    message_code: 'api_v1_ok',
    data,
    meta: { request_id: crypto.randomUUID(), ...options.page },
  });
}

/**
 * A failed request, thrown from anywhere in a handler and turned into the error body by the service's
 * error handler, so that handlers read top to bottom as the checks of the contract, in its order.
 */
export class ApiFailure extends Error {
  override name = 'ApiFailure';

  /** `message_code`. */
  readonly code: MessageCode;

  /** `code` is one the contract names or one of the mock's own (contract/codes.ts): a typo does not compile. */
  constructor(
    /** HTTP status. */
    readonly status: number,
    code: KnownCode | MockCode,
    message: string,
    /** `data` of the body; null when there is nothing to add. */
    readonly data: unknown = null,
    /** `meta.error_details`, for outages. */
    readonly errorDetails?: ErrorDetails,
  ) {
    super(message);
    this.code = code;
  }

  /** A failure whose code comes from elsewhere (a fake model's turn code, a fault): any code goes. */
  static relayed(
    status: number,
    code: MessageCode,
    message: string,
    data: unknown = null,
    errorDetails?: ErrorDetails,
  ): ApiFailure {
    const failure = new ApiFailure(status, 'api_v1_internal_error', message, data, errorDetails);
    (failure as { code: MessageCode }).code = code;
    return failure;
  }

  /** The error body of `errorResponse`. */
  toResponse(): Response {
    const { status, code, message, data, errorDetails } = this;
    return errorBody({ status, code, message, data, errorDetails });
  }
}

/** 404 `api_v1_not_found`: the same answer whether a resource is missing or out of the credential's scope. */
export function notFound(what = 'Resource'): ApiFailure {
  return new ApiFailure(404, 'api_v1_not_found', `${what} not found.`);
}
