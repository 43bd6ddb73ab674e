import * as z from 'zod/mini';
import { FLAT_VALUE_MESSAGE, isFlatValue } from './elicitation.js';
import { ToolCallSchema } from './turn.js';

/** The kinds of interaction (2.6). */
export const INTERACTION_KINDS = ['tool_approval', 'plan_approval', 'elicitation', 'auth_required'] as const;
/** An interaction kind. */
export type InteractionKind = (typeof INTERACTION_KINDS)[number];

/** `tool_approval` payload: the tools the turn asks to run. */
export const ToolApprovalPayloadSchema = z.looseObject({ tools: z.array(ToolCallSchema) });
/** A step of a plan; `tool` only when the step uses one. */
export const PlanStepSchema = z.looseObject({
  step: z.unknown(),
  action: z.string(),
  tool: z.optional(z.string()),
});
/** `plan_approval` payload. */
export const PlanApprovalPayloadSchema = z.looseObject({
  plan: z.looseObject({
    title: z.string(),
    context: z.optional(z.string()),
    steps: z.array(PlanStepSchema),
    notes: z.optional(z.unknown()),
  }),
});
/** `elicitation` payload: `requested_schema` is a JSON Schema the answer's `content` must satisfy. */
export const ElicitationPayloadSchema = z.looseObject({
  message: z.string(),
  mode: z.string(),
  requested_schema: z.record(z.string(), z.unknown()),
});

/** `tool_approval` payload. */
export type ToolApprovalPayload = z.infer<typeof ToolApprovalPayloadSchema>;
/** `plan_approval` payload. */
export type PlanApprovalPayload = z.infer<typeof PlanApprovalPayloadSchema>;
/** `elicitation` payload. */
export type ElicitationPayload = z.infer<typeof ElicitationPayloadSchema>;

/** The body field every answer carries. */
const actionId = z.string().check(z.minLength(1));

/** Body of `approve-tool` (4.5): one decision per tool the turn asked. */
export const ApproveToolSchema = z.looseObject({
  action_id: actionId,
  decisions: z.array(z.looseObject({ tool_use_id: z.string(), approved: z.boolean() })).check(z.minLength(1)),
});
/** Body of `approve-tool`. */
export type ApproveToolBody = z.input<typeof ApproveToolSchema>;

/** Body of `respond-plan` (4.5). */
export const RespondPlanSchema = z.looseObject({
  action_id: actionId,
  action: z.enum(['approve', 'reject']),
});
/** Body of `respond-plan`. */
export type RespondPlanBody = z.input<typeof RespondPlanSchema>;

/** A value of a flat object: what an elicitation answer's fields may hold. */
export type FlatValue = string | number | boolean | null;

/**
 * A flat object, kept as it came: no copy, so a field named `__proto__` stays a field (a record schema would
 * rebuild the object, and assigning `__proto__` sets a prototype instead).
 */
const FlatObject = z
  .custom<Record<string, FlatValue>>(
    (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
    'must be an object',
  )
  .check(
    z.superRefine((value, context) => {
      for (const [key, field] of Object.entries(value)) {
        if (isFlatValue(field)) continue;
        context.issues.push({ code: 'custom', path: [key], message: FLAT_VALUE_MESSAGE, input: field });
      }
    }),
  );

/** Body of `respond-elicitation` (4.5): `content` is required with `accept` and must be a flat object. */
export const RespondElicitationSchema = z
  .looseObject({
    action_id: actionId,
    action: z.enum(['accept', 'decline', 'cancel']),
    content: z.optional(FlatObject),
  })
  .check(
    z.refine((body) => body.action !== 'accept' || body.content !== undefined, {
      message: 'is required with action "accept"',
      path: ['content'],
    }),
  );
/** Body of `respond-elicitation`. */
export type RespondElicitationBody = z.input<typeof RespondElicitationSchema>;

/** Body of `cancel-auth` (4.5). */
export const CancelAuthSchema = z.looseObject({ action_id: actionId });
/** Body of `cancel-auth`. */
export type CancelAuthBody = z.input<typeof CancelAuthSchema>;

/** Body of `cancel` (4.6): without `action_id`, the live turn is cancelled. */
export const CancelSchema = z.looseObject({ action_id: z.optional(actionId) });
/** Body of `cancel`. */
export type CancelBody = z.input<typeof CancelSchema>;

/** `data` of a successful answer: the interaction is resolved. */
export const ActionResultSchema = z.looseObject({ action_id: z.string(), state: z.literal('resolved') });
/** What an accepted answer returns. */
export type ActionResult = z.infer<typeof ActionResultSchema>;

/** `data` of `cancel` (4.6). */
export const CancelResultSchema = z.looseObject({ chat_id: z.string(), cancelled: z.boolean() });
/** What `cancel` returns: whether a turn was cancelled. */
export type CancelResult = z.infer<typeof CancelResultSchema>;

/** The endpoint that answers each kind (6). */
export const ANSWER_ENDPOINTS = {
  tool_approval: 'approve-tool',
  plan_approval: 'respond-plan',
  elicitation: 'respond-elicitation',
  auth_required: 'cancel-auth',
} as const satisfies Record<InteractionKind, string>;
