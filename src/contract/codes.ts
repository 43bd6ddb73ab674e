import type * as z from 'zod/mini';
import type { ERROR_DATA_SCHEMAS } from './error-data.js';

/**
 * Every `message_code` and turn `code` the contract names (sections 2.1, 5, 6 and 7), and the 401 a missing
 * or unknown credential gets (5).
 */
export const KNOWN_CODES = [
  'api_v1_ok',
  'api_v1_unauthorized',
  'api_v1_not_found',
  'api_token_scope_not_allowed',
  'api_v1_resource_policy_create_denied',
  'api_v1_resource_not_allowed',
  'prompt_refs_invalid',
  'prompt_text_too_long',
  'api_v1_idempotency_key_required',
  'api_v1_sync_requires_auto',
  'api_v1_idempotency_conflict',
  'api_v1_turn_in_progress',
  'api_v1_chat_busy',
  'api_v1_core_unavailable',
  'api_v1_content_too_long',
  'api_v1_too_many_attachments',
  'upstream_error',
  'interaction_in_auto_mode',
  'turn_timeout',
  'persistence_failed',
  'outcome_unknown',
  'idempotency_outcome_unknown',
  'api_v1_action_not_found',
  'api_v1_action_not_pending',
  'api_v1_action_result_unknown',
  'api_v1_service_unavailable',
  'api_v1_interaction_backend_unavailable',
] as const;

/** A `message_code` the contract names. */
export type KnownCode = (typeof KNOWN_CODES)[number];

/**
 * The `message_code` values the reference mock answers where the contract names none (section 7 leaves
 * those failures open): 401 `api_v1_unauthorized` (no or unknown token), 400 `api_v1_invalid_json`, 413
 * `api_v1_payload_too_large`, 422 `api_v1_validation_error` (a body or query the schemas refuse, `data`
 * listing `{ field, message, limit? }`) and 500 `api_v1_internal_error`. Readings of the mock, not contract.
 */
export const MOCK_CODES = [
  'api_v1_unauthorized',
  'api_v1_invalid_json',
  'api_v1_payload_too_large',
  'api_v1_validation_error',
  'api_v1_internal_error',
] as const;

/** A `message_code` of the mock's own (`MOCK_CODES`). */
export type MockCode = (typeof MOCK_CODES)[number];

/** A `message_code`: one the contract names, or one it does not know yet (kept as a plain string). */
export type MessageCode = KnownCode | (string & {});

/** The `data` of an error response, by `message_code`, where the contract gives its shape (`ERROR_DATA_SCHEMAS`). */
export type ErrorDataByCode = {
  [C in keyof typeof ERROR_DATA_SCHEMAS]: z.output<(typeof ERROR_DATA_SCHEMAS)[C]>;
};

/** The `data` of an error with code `C`: its documented shape, or `unknown`. */
export type ErrorData<C extends string> = C extends keyof ErrorDataByCode ? ErrorDataByCode[C] : unknown;

/**
 * The codes that say "send again with the same key to read the outcome the service stored" (6, 7.3), with
 * the status each comes with as an HTTP answer (`api_v1_core_unavailable`'s `data.code`); as a
 * `message.error` code, the stream is re-read.
 */
export const REREAD_CODES = { idempotency_outcome_unknown: 409, persistence_failed: 503 } as const;

/** Whether `code` says to read the stored outcome again with the same key (`REREAD_CODES`). */
export function isRereadCode(code: unknown): code is keyof typeof REREAD_CODES {
  return typeof code === 'string' && Object.hasOwn(REREAD_CODES, code);
}
