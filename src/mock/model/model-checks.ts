import type * as z from 'zod/mini';
import {
  ElicitationPayloadSchema,
  PlanApprovalPayloadSchema,
  ToolApprovalPayloadSchema,
} from '../../contract/interactions.js';
import type { InteractionAction } from './model.js';

/**
 * What a fake model yields, checked by the contract's schemas before it reaches a client: a hook that
 * yields a malformed step, tool or payload fails its turn (upstream_error) like a broken provider would,
 * instead of sending events the contract does not allow.
 */

/** `value` checked by `schema`; throws an Error naming `what` otherwise. */
export function checkedOutput<T>(schema: z.ZodMiniType<T>, value: unknown, what: string): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new Error(`invalid ${what} ${JSON.stringify(value)}`);
}

/** The payload of an interaction, checked by the schema of its kind (2.6). */
export function checkedPayload(action: InteractionAction): Record<string, unknown> {
  switch (action.kind) {
    case 'tool_approval':
      return checkedOutput(ToolApprovalPayloadSchema, action.payload, 'tool_approval payload');
    case 'plan_approval':
      return checkedOutput(PlanApprovalPayloadSchema, action.payload, 'plan_approval payload');
    case 'elicitation':
      return checkedOutput(ElicitationPayloadSchema, action.payload, 'elicitation payload');
    case 'auth_required':
      // 6: its further payload fields are not shown; any object goes.
      return structuredClone(action.payload);
  }
}
