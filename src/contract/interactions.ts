import * as z from 'zod/mini';
import { openEnum, Uuid } from './checks.js';
import { FLAT_VALUE_MESSAGE, isFlatValue } from './elicitation.js';
import { type ToolCall, ToolCallSchema } from './turn.js';

/** The kinds of interaction (2.6). */
export const INTERACTION_KINDS = ['tool_approval', 'plan_approval', 'elicitation', 'auth_required'] as const;
/** An interaction kind. */
export type InteractionKind = (typeof INTERACTION_KINDS)[number];

/** `tool_approval` payload: the tools the turn asks to run. */
export const ToolApprovalPayloadSchema = z.looseObject({ tools: z.array(ToolCallSchema) });
/** A step of a plan. */
export const PlanStepSchema = z.looseObject({
  step: z.unknown(),
  action: z.string(),
  tool: z.optional(z.string()),
});
/** `plan_approval` payload. */
export const PlanApprovalPayloadSchema = z.looseObject({
  plan: z.looseObject({
    title: z.string(),
    context: z.string(),
    steps: z.array(PlanStepSchema),
    notes: z.unknown(),
  }),
});
/** `elicitation` payload: `requested_schema` is a JSON Schema the answer's `content` must satisfy. */
export const ElicitationPayloadSchema = z.looseObject({
  message: z.string(),
  mode: z.string(),
  requested_schema: z.record(z.string(), z.unknown()),
});

/** `tool_approval` payload: the tools the turn asks to run. */
export interface ToolApprovalPayload {
  /** One decision per tool is expected. */
  tools: ToolCall[];
}

/** A step of a plan; `tool` only when the step uses one. */
export interface PlanStep {
  /** The step's number or name, as the service sends it. */
  step: unknown;
  /** What the step does. */
  action: string;
  /** The tool it uses, if any. */
  tool?: string | undefined;
}

/** `plan_approval` payload: the plan to approve or reject. */
export interface PlanApprovalPayload {
  /** The plan. */
  plan: {
    /** Its title. */
    title: string;
    /** Why this plan. */
    context: string;
    /** What it will do, in order. */
    steps: PlanStep[];
    /** Notes; their type is not part of the contract. */
    notes: unknown;
  };
}

/** `elicitation` payload: a question whose answer must satisfy `requested_schema`. */
export interface ElicitationPayload {
  /** The question. */
  message: string;
  /** How to ask it (`form`). */
  mode: string;
  /** The JSON Schema the answer's `content` must satisfy. */
  requested_schema: Record<string, unknown>;
}

/** The body field every answer carries. */
const actionId = z.string().check(z.minLength(1));

/** Body of `approve-tool` (4.5): one decision per tool the turn asked. */
export interface ApproveToolBody {
  /** The interaction's id, from the event. */
  action_id: string;
  /** At least one: per tool, whether it may run. */
  decisions: Array<{
    /** The tool call's id, from `payload.tools`. */
    tool_use_id: string;
    /** `true` runs the tool, `false` skips it. */
    approved: boolean;
  }>;
}

/** Body of `approve-tool` (4.5); an unknown field is refused. */
export const ApproveToolSchema = z.strictObject({
  action_id: actionId,
  decisions: z
    .array(z.strictObject({ tool_use_id: z.string(), approved: z.boolean() }))
    .check(z.minLength(1)),
});

/** Body of `respond-plan` (4.5). */
export interface RespondPlanBody {
  /** The interaction's id, from the event. */
  action_id: string;
  /** `approve` or `reject`. */
  action: 'approve' | 'reject';
}

/** Body of `respond-plan` (4.5); an unknown field is refused. */
export const RespondPlanSchema = z.strictObject({
  action_id: actionId,
  action: z.enum(['approve', 'reject']),
});

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
export interface RespondElicitationBody {
  /** The interaction's id, from the event. */
  action_id: string;
  /** `accept` (with `content`), `decline` or `cancel`. */
  action: 'accept' | 'decline' | 'cancel';
  /** The answer: a flat object satisfying `payload.requested_schema`. */
  content?: Record<string, FlatValue> | undefined;
}

/** Body of `respond-elicitation` (4.5); an unknown field is refused. */
export const RespondElicitationSchema = z
  .strictObject({
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

/** Body of `cancel-auth` (4.5). */
export interface CancelAuthBody {
  /** The interaction's id, from the event. */
  action_id: string;
}

/** Body of `cancel-auth` (4.5); an unknown field is refused. */
export const CancelAuthSchema = z.strictObject({ action_id: actionId });

/** Body of `cancel` (4.6): without `action_id`, the live turn is cancelled. */
export interface CancelBody {
  /** Cancel the turn of this interaction (it must belong to this credential's turn). */
  action_id?: string | undefined;
}

/** Body of `cancel` (4.6); an unknown field is refused. */
export const CancelSchema = z.strictObject({ action_id: z.optional(actionId) });

/** What an accepted answer returns: the interaction is resolved (4.5). */
export interface ActionResult {
  /** The interaction answered. */
  action_id: string;
  /** `resolved`; a newer service may add states. */
  state: 'resolved' | (string & {});
}

/** `data` of a successful answer. */
export const ActionResultSchema = z.looseObject({ action_id: z.string(), state: openEnum<'resolved'>() });

/** What `cancel` returns: whether a turn was cancelled (4.6). */
export interface CancelResult {
  /** The chat. */
  chat_id: string;
  /** Whether a running turn was cancelled. */
  cancelled: boolean;
}

/** `data` of `cancel` (4.6). */
export const CancelResultSchema = z.looseObject({ chat_id: Uuid, cancelled: z.boolean() });

/**
 * How each kind is answered (4.5, 6), the one table of it: the answer endpoint's path segment (under
 * `chats/{chat_id}/actions/`) and its body's schema. The client's answers, the mock's routes and its
 * inspector read it.
 */
export const ANSWERS = {
  tool_approval: { endpoint: 'approve-tool', schema: ApproveToolSchema },
  plan_approval: { endpoint: 'respond-plan', schema: RespondPlanSchema },
  elicitation: { endpoint: 'respond-elicitation', schema: RespondElicitationSchema },
  auth_required: { endpoint: 'cancel-auth', schema: CancelAuthSchema },
} as const satisfies Record<InteractionKind, { endpoint: string; schema: z.ZodMiniType }>;

/** The path segment of an answer endpoint (4.5). */
export type AnswerEndpoint = (typeof ANSWERS)[InteractionKind]['endpoint'];
