import type { KnownCode, MessageCode, MockCode } from '../../contract/codes.js';
import type { ErrorDetails } from '../../contract/envelope.js';

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
export function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8' },
  });
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

  /** The error body: `{ status: "error", message, message_code, data, meta: { request_id, error_details? } }`. */
  toResponse(): Response {
    return json(this.status, {
      status: 'error',
      message: this.message,
      message_code: this.code,
      data: this.data,
      meta: {
        request_id: crypto.randomUUID(),
        ...(this.errorDetails ? { error_details: this.errorDetails } : {}),
      },
    });
  }
}

/** 404 `api_v1_not_found`: the same answer whether a resource is missing or out of the credential's scope. */
export function notFound(what = 'Resource'): ApiFailure {
  return new ApiFailure(404, 'api_v1_not_found', `${what} not found.`);
}
