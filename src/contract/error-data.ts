import * as z from 'zod/mini';
import { intId, uuid } from './checks.js';
import { lazy } from './lazy.js';
import { SCOPES } from './scopes.js';

/** The turn codes `api_v1_core_unavailable` carries in `data.code` (7.3; `outcome_unknown` the mock's reading at 503). */
const CORE_UNAVAILABLE_CODES = [
  'idempotency_outcome_unknown',
  'persistence_failed',
  'outcome_unknown',
] as const;

/** `data` naming the turn a failure belongs to (7.3: `upstream_error`, `turn_timeout`). */
export const turnRefDataSchema = lazy(() => z.looseObject({ chat_id: uuid(), message_id: intId() }));

/**
 * The `data` of an error answer, by `message_code`, where sections 5 and 7 (or, for the mock's own codes,
 * the reference mock) give its shape; a code not here has a `data` the contract does not show. Built whole
 * on first use: the client's error mapping (`http/failures.ts`) reads it at the first error answer.
 */
export const errorDataSchemas = lazy(() => ({
  /** 5: the scopes the credential lacks. */
  api_token_scope_not_allowed: z.looseObject({ required_scopes: z.array(z.enum(SCOPES)) }),
  /** 7.3: the turn that keeps the chat busy. */
  api_v1_chat_busy: z.looseObject({ message_id: intId() }),
  /**
   * 7.3: the turn's own code (`idempotency_outcome_unknown` at 409, `persistence_failed` at 503, where the
   * reference mock also answers `outcome_unknown`); 7.6's 502 (a cancel not delivered) names no `data`.
   */
  api_v1_core_unavailable: z.nullish(z.looseObject({ code: z.enum(CORE_UNAVAILABLE_CODES) })),
  /** 7.3: the failed turn. */
  upstream_error: turnRefDataSchema(),
  /** 7.3: the turn that ran out of time. */
  turn_timeout: turnRefDataSchema(),
  /** 7.5: at 409, the status the conversation service answered; the 503 names no `data`. */
  api_v1_action_result_unknown: z.nullish(z.looseObject({ upstream_status: z.optional(intId()) })),
  /** 7.2: `data[0]` groups the invalid references by category (how: not shown). */
  prompt_refs_invalid: z.array(z.record(z.string(), z.unknown())),
  /** The mock's 422: one entry per refused field. */
  api_v1_validation_error: z.array(
    z.looseObject({ field: z.string(), message: z.string(), limit: z.optional(z.number()) }),
  ),
}));

/** The `data` of an error answer by code (`errorDataSchemas`' table): for `convo-sdk/schemas`, the mock, the OpenAPI document. */
export const ERROR_DATA_SCHEMAS = /* @__PURE__ */ errorDataSchemas();
