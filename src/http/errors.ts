import type * as z from 'zod/mini';
import { ErrorBodySchema } from '../contract/envelope.js';
import { plainIssues } from '../contract/issues.js';
import {
  AbortError,
  ApiError,
  ConnectionError,
  ConvoError,
  ResponseValidationError,
  TimeoutError,
} from '../errors.js';
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
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new ConnectionError(`the connection failed: ${reason}`, { cause });
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

/** Builds the error of a non-2xx response from its parsed body. */
export function apiFailure(status: number, body: unknown, retryAfter: string | null): ConvoError {
  const parsed = ErrorBodySchema.safeParse(body);
  if (!parsed.success) {
    if (body === undefined || typeof body === 'string') {
      return new ApiError({
        status,
        code: `http_${status}`,
        message: typeof body === 'string' && body ? body.slice(0, 200) : 'the response had no error body',
        data: undefined,
        requestId: undefined,
        errorDetails: undefined,
        retryAfterMs: parseRetryAfter(retryAfter),
      });
    }
    return schemaFailure(parsed.error, body, status);
  }
  const { message_code, message, data, meta } = parsed.data;
  const advice = ADVICE[message_code];
  return new ApiError({
    status,
    code: message_code,
    message: advice ? `${message ?? message_code} (${advice})` : (message ?? message_code),
    data,
    requestId: meta?.request_id,
    errorDetails: meta?.error_details,
    retryAfterMs: parseRetryAfter(retryAfter),
  });
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
