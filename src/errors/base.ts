import type { ErrorData, KnownCode, MessageCode } from '../contract/codes.js';
import type { ErrorDetails } from '../contract/envelope.js';
import { isInstance } from './brand.js';

/** Base class of every error the SDK throws. */
export class ConvoError extends Error {
  override name = 'ConvoError';
  /** The `Idempotency-Key` of the turn call that failed, when it was one: read its outcome later with it. */
  idempotencyKey?: string;
  /** The chat of the turn call that failed, when it was one. */
  chatId?: string | undefined;
  /** The turn's id (`message_id`), when the turn call that failed had started it. */
  messageId?: number | undefined;

  /** An instance of this class from any copy of the SDK: its ESM and CommonJS builds, each entry (`brand.ts`). */
  static override [Symbol.hasInstance](value: unknown): boolean {
    // biome-ignore lint/complexity/noThisInStatic: `this` is the subclass on the right of `instanceof`.
    return isInstance(this, value);
  }
}

/** Fields of an `ApiError`. */
export interface ApiErrorInit {
  /** HTTP status. */
  status: number;
  /** `message_code` of the response. */
  code: MessageCode;
  /** The service's message. */
  message: string;
  /** `data` of the response, when it had one. */
  data: unknown;
  /** `meta.request_id`, when the response had one. */
  requestId: string | undefined;
  /** `meta.error_details`, present on outages. */
  errorDetails: ErrorDetails | undefined;
  /** Milliseconds the service asked to wait (`Retry-After`), when it did. */
  retryAfterMs?: number | undefined;
  /** The response's headers; empty when absent. */
  headers?: Headers | undefined;
}

/** The service answered with an error status (section 7). */
export class ApiError<C extends MessageCode = MessageCode> extends ConvoError {
  override name = 'ApiError';
  /** HTTP status. */
  readonly status: number;
  /** `message_code`: compare it, or use `is()` to narrow `data`. */
  readonly code: C;
  /** `data` of the response (its shape per code is in `ErrorDataByCode`). */
  readonly data: ErrorData<C>;
  /** `meta.request_id` of the failed request. */
  readonly requestId: string | undefined;
  /** `meta.error_details`: outage details, with `retry_action`. */
  readonly errorDetails: ErrorDetails | undefined;
  /** Milliseconds the service asked to wait before a retry (`Retry-After`). */
  readonly retryAfterMs: number | undefined;
  /** The headers of the error response (never the request's, so never the token). */
  readonly headers: Headers;

  constructor(init: ApiErrorInit) {
    super(`${init.status} ${init.code}: ${init.message}`);
    this.status = init.status;
    this.code = init.code as C;
    this.data = init.data as ErrorData<C>;
    this.requestId = init.requestId;
    this.errorDetails = init.errorDetails;
    this.retryAfterMs = init.retryAfterMs;
    this.headers = init.headers ?? new Headers();
  }

  /** Whether this error has `code`; narrows `data` to that code's documented shape. */
  is<K extends KnownCode>(code: K): this is ApiError<K> {
    return (this.code as string) === code;
  }
}

/** 400: the request was malformed (such as a missing `Idempotency-Key`, 7.3). */
export class BadRequestError<C extends MessageCode = MessageCode> extends ApiError<C> {
  override name = 'BadRequestError';
}

/** 401: the token is missing, invalid, expired or revoked. */
export class AuthenticationError<C extends MessageCode = MessageCode> extends ApiError<C> {
  override name = 'AuthenticationError';
}

/** 403: the token lacks a scope, or the resource belongs to someone else. */
export class PermissionDeniedError<C extends MessageCode = MessageCode> extends ApiError<C> {
  override name = 'PermissionDeniedError';
}

/** 404: no such resource (or route: check `baseUrl`). */
export class NotFoundError<C extends MessageCode = MessageCode> extends ApiError<C> {
  override name = 'NotFoundError';
}

/** 409: the resource's state refuses the request (chat busy, key reused, already answered...). */
export class ConflictError<C extends MessageCode = MessageCode> extends ApiError<C> {
  override name = 'ConflictError';
}

/** 422: the service refused the request's content (a field, a reference or a limit; `data` says which). */
export class UnprocessableEntityError<C extends MessageCode = MessageCode> extends ApiError<C> {
  override name = 'UnprocessableEntityError';
}

/** 429: too many requests; `retryAfterMs` says how long the service asked to wait. */
export class RateLimitError<C extends MessageCode = MessageCode> extends ApiError<C> {
  override name = 'RateLimitError';
}

/** 5xx: the service, or a gateway in front of it, failed. */
export class InternalServerError<C extends MessageCode = MessageCode> extends ApiError<C> {
  override name = 'InternalServerError';
}

/**
 * The service answered with a redirect (3xx), which the SDK never follows, so that nothing (the token, an
 * `Idempotency-Key`, a prompt) reaches another origin. In a browser the status and location are hidden (0, '').
 */
export class RedirectError extends ConvoError {
  override name = 'RedirectError';
  /** HTTP status of the redirect (0 where the browser hides it). */
  readonly status: number;
  /** The `Location` it pointed to ('' where absent or hidden). */
  readonly location: string;

  constructor(status: number, location: string) {
    super(
      `the service answered ${status || 'a redirect'}${location ? ` to ${location}` : ''}, which is never followed: set baseUrl to the service's final address`,
    );
    this.status = status;
    this.location = location;
  }
}

/** A response body grew past `maxResponseBytes` (counted after decompression); reading stopped there. */
export class ResponseTooLargeError extends ConvoError {
  override name = 'ResponseTooLargeError';
  /** The limit in bytes that was crossed. */
  readonly limit: number;

  constructor(limit: number) {
    super(`the response body exceeded maxResponseBytes (${limit} bytes): reading stopped`);
    this.limit = limit;
  }
}

/** The request could not reach the service, or the connection broke before a complete response. */
export class ConnectionError extends ConvoError {
  override name = 'ConnectionError';
}

/** The request took longer than its `timeout`. */
export class TimeoutError extends ConvoError {
  override name = 'TimeoutError';
}

/** The caller's `signal` aborted the request. */
export class AbortError extends ConvoError {
  override name = 'AbortError';
}

/** Which integrator callback failed: one of the `hooks`, or the client's `onRetry`. */
export type HookName = 'beforeRequest' | 'afterResponse' | 'beforeRetry' | 'onRetry' | 'beforeError';

/**
 * A hook (or `onRetry`) threw, or returned what it may not: `hook` names it, `cause` holds what it threw or
 * returned. The SDK's own failure is never this; it is not retried.
 */
export class HookError extends ConvoError {
  override name = 'HookError';
  /** The hook that failed. */
  readonly hook: HookName;

  constructor(hook: HookName, message: string, cause: unknown) {
    super(`the ${hook} hook ${message}`, { cause });
    this.hook = hook;
  }
}

/** One problem found in a request before it was sent. */
export interface ValidationIssue {
  /** Dotted path of the field, such as `attachments.file_ids.0`. */
  field: string;
  /** What is wrong with it. */
  message: string;
  /** The limit that was crossed, when the problem is a limit. */
  limit?: number;
}

/** Bad input, found before anything was sent; `field` and `limit` name the first problem. */
export class ValidationError extends ConvoError {
  override name = 'ValidationError';
  /** The first failing field. */
  readonly field: string;
  /** The limit that field crossed, when it crossed one. */
  readonly limit: number | undefined;
  /** Every problem found. */
  readonly issues: ValidationIssue[];

  constructor(issues: [ValidationIssue, ...ValidationIssue[]]) {
    const [first] = issues;
    const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
    super(`${first.field}: ${first.message}${more}`);
    this.field = first.field;
    this.limit = first.limit;
    this.issues = issues;
  }
}

/** A response did not match the contract: `path` names where, `body` holds what came. */
export class ResponseValidationError extends ConvoError {
  override name = 'ResponseValidationError';
  /** Dotted path of the first mismatch in the body. */
  readonly path: string;
  /** The parsed body (or raw text, when it was not JSON). */
  readonly body: unknown;
  /** HTTP status of the response. */
  readonly status: number;

  constructor(message: string, init: { path: string; body: unknown; status: number }) {
    super(`response does not match the contract at ${init.path || '(root)'}: ${message}`);
    this.path = init.path;
    this.body = init.body;
    this.status = init.status;
  }
}
