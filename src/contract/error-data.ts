import * as z from 'zod/mini';
import { IntId, Uuid } from './checks.js';
import { SCOPES } from './scopes.js';

/** The turn codes `api_v1_core_unavailable` carries in `data.code` (7.3; `outcome_unknown` the mock's reading at 503). */
const CORE_UNAVAILABLE_CODES = [
  'idempotency_outcome_unknown',
  'persistence_failed',
  'outcome_unknown',
] as const;

/** `data` naming the turn a failure belongs to (7.3: `upstream_error`, `turn_timeout`). */
export const TurnRefDataSchema = z.looseObject({ chat_id: Uuid, message_id: IntId });

/**
 * The `data` of an error answer, by `message_code`, where sections 5 and 7 (or, for the mock's own codes,
 * the reference mock) give its shape; a code not here has a `data` the contract does not show. Read by the
 * OpenAPI document and the tests; the client takes only the type (`ErrorDataByCode` in `codes.ts`).
 */
export const ERROR_DATA_SCHEMAS = {
  /** 5: the scopes the credential lacks. */
  api_token_scope_not_allowed: z.looseObject({ required_scopes: z.array(z.enum(SCOPES)) }),
  /** 7.3: the turn that keeps the chat busy. */
  api_v1_chat_busy: z.looseObject({ message_id: IntId }),
  /**
   * 7.3: the turn's own code (`idempotency_outcome_unknown` at 409, `persistence_failed` at 503, where the
   * reference mock also answers `outcome_unknown`); 7.6's 502 (a cancel not delivered) names no `data`.
   */
  api_v1_core_unavailable: z.nullish(z.looseObject({ code: z.enum(CORE_UNAVAILABLE_CODES) })),
  /** 7.3: the failed turn. */
  upstream_error: TurnRefDataSchema,
  /** 7.3: the turn that ran out of time. */
  turn_timeout: TurnRefDataSchema,
  /** 7.5: at 409, the status the conversation service answered; the 503 names no `data`. */
  api_v1_action_result_unknown: z.nullish(z.looseObject({ upstream_status: z.optional(IntId) })),
  /** 7.2: `data[0]` groups the invalid references by category (how: not shown). */
  prompt_refs_invalid: z.array(z.record(z.string(), z.unknown())),
  /** The mock's 422: one entry per refused field. */
  api_v1_validation_error: z.array(
    z.looseObject({ field: z.string(), message: z.string(), limit: z.optional(z.number()) }),
  ),
};
