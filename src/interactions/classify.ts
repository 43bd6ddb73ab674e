import type { ActionRequiredPayload } from '../contract/events.js';
import {
  type ElicitationPayload,
  elicitationPayloadSchema,
  type PlanApprovalPayload,
  planApprovalPayloadSchema,
  type ToolApprovalPayload,
  toolApprovalPayloadSchema,
} from '../contract/interactions.js';

/** An interaction's payload typed by its kind; `unknown` for a kind this version does not know, or a payload off the contract. */
export type ClassifiedPayload =
  | { kind: 'tool_approval'; payload: ToolApprovalPayload }
  | { kind: 'plan_approval'; payload: PlanApprovalPayload }
  | { kind: 'elicitation'; payload: ElicitationPayload }
  | { kind: 'auth_required'; payload: unknown }
  | { kind: 'unknown'; payload: unknown };

/** Types a `message.action_required` payload by its kind. */
export function classify(raw: ActionRequiredPayload): ClassifiedPayload {
  switch (raw.kind) {
    case 'tool_approval': {
      const payload = toolApprovalPayloadSchema().safeParse(raw.payload);
      if (payload.success) return { kind: 'tool_approval', payload: payload.data };
      break;
    }
    case 'plan_approval': {
      const payload = planApprovalPayloadSchema().safeParse(raw.payload);
      if (payload.success) return { kind: 'plan_approval', payload: payload.data };
      break;
    }
    case 'elicitation': {
      const payload = elicitationPayloadSchema().safeParse(raw.payload);
      if (payload.success) return { kind: 'elicitation', payload: payload.data };
      break;
    }
    case 'auth_required':
      return { kind: 'auth_required', payload: raw.payload };
  }
  return { kind: 'unknown', payload: raw.payload };
}
