import * as z from 'zod/mini';
import { openEnum, uuid } from './checks.js';
import { FLAT_VALUE_MESSAGE, isFlatValue } from './elicitation.js';
import { lazy } from './lazy.js';
import { type ToolCall, toolCallSchema } from './turn.js';

/** The kinds of interaction (2.6). */
export const INTERACTION_KINDS = ['tool_approval', 'plan_approval', 'elicitation', 'auth_required'] as const;
/** An interaction kind. */
export type InteractionKind = (typeof INTERACTION_KINDS)[number];

/** `tool_approval` payload: the tools the turn asks to run. */
export const toolApprovalPayloadSchema = lazy(() => z.looseObject({ tools: z.array(toolCallSchema()) }));
/** The payload of a `tool_approval` (`toolApprovalPayloadSchema`'s schema). */
export const ToolApprovalPayloadSchema = /* @__PURE__ */ toolApprovalPayloadSchema();
/** A step of a plan. */
const planStepSchema = lazy(() =>
  z.looseObject({
    step: z.unknown(),
    action: z.string(),
    tool: z.optional(z.string()),
  }),
);
/** A step of a plan (`planStepSchema`'s schema). */
export const PlanStepSchema = /* @__PURE__ */ planStepSchema();
/** `plan_approval` payload. */
export const planApprovalPayloadSchema = lazy(() =>
  z.looseObject({
    plan: z.looseObject({
      title: z.string(),
      context: z.string(),
      steps: z.array(planStepSchema()),
      notes: z.unknown(),
    }),
  }),
);
/** The payload of a `plan_approval` (`planApprovalPayloadSchema`'s schema). */
export const PlanApprovalPayloadSchema = /* @__PURE__ */ planApprovalPayloadSchema();
/** `elicitation` payload: `requested_schema` is a JSON Schema the answer's `content` must satisfy. */
export const elicitationPayloadSchema = lazy(() =>
  z.looseObject({
    message: z.string(),
    mode: z.string(),
    requested_schema: z.record(z.string(), z.unknown()),
  }),
);
/** The payload of an `elicitation` (`elicitationPayloadSchema`'s schema). */
export const ElicitationPayloadSchema = /* @__PURE__ */ elicitationPayloadSchema();

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
const actionId = lazy(() => z.string().check(z.minLength(1)));

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
const approveToolSchema = lazy(() =>
  z.strictObject({
    action_id: actionId(),
    decisions: z
      .array(z.strictObject({ tool_use_id: z.string(), approved: z.boolean() }))
      .check(z.minLength(1)),
  }),
);
/** Body of `approve-tool` (`approveToolSchema`'s schema). */
export const ApproveToolSchema = /* @__PURE__ */ approveToolSchema();

/** Body of `respond-plan` (4.5). */
export interface RespondPlanBody {
  /** The interaction's id, from the event. */
  action_id: string;
  /** `approve` or `reject`. */
  action: 'approve' | 'reject';
}

/** Body of `respond-plan` (4.5); an unknown field is refused. */
const respondPlanSchema = lazy(() =>
  z.strictObject({
    action_id: actionId(),
    action: z.enum(['approve', 'reject']),
  }),
);
/** Body of `respond-plan` (`respondPlanSchema`'s schema). */
export const RespondPlanSchema = /* @__PURE__ */ respondPlanSchema();

/** A value of a flat object: what an elicitation answer's fields may hold. */
export type FlatValue = string | number | boolean | null;

/**
 * A flat object, kept as it came: no copy, so a field named `__proto__` stays a field (a record schema would
 * rebuild the object, and assigning `__proto__` sets a prototype instead).
 */
const flatObject = lazy(() =>
  z
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
    ),
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
const respondElicitationSchema = lazy(() =>
  z
    .strictObject({
      action_id: actionId(),
      action: z.enum(['accept', 'decline', 'cancel']),
      content: z.optional(flatObject()),
    })
    .check(
      z.refine((body) => body.action !== 'accept' || body.content !== undefined, {
        message: 'is required with action "accept"',
        path: ['content'],
      }),
    ),
);
/** Body of `respond-elicitation` (`respondElicitationSchema`'s schema). */
export const RespondElicitationSchema = /* @__PURE__ */ respondElicitationSchema();

/** Body of `cancel-auth` (4.5). */
export interface CancelAuthBody {
  /** The interaction's id, from the event. */
  action_id: string;
}

/** Body of `cancel-auth` (4.5); an unknown field is refused. */
const cancelAuthSchema = lazy(() => z.strictObject({ action_id: actionId() }));
/** Body of `cancel-auth` (`cancelAuthSchema`'s schema). */
export const CancelAuthSchema = /* @__PURE__ */ cancelAuthSchema();

/** Body of `cancel` (4.6): without `action_id`, the live turn is cancelled. */
export interface CancelBody {
  /** Cancel the turn of this interaction (it must belong to this credential's turn). */
  action_id?: string | undefined;
}

/** Body of `cancel` (4.6); an unknown field is refused. */
export const cancelSchema = lazy(() => z.strictObject({ action_id: z.optional(actionId()) }));
/** Body of `cancel` (`cancelSchema`'s schema). */
export const CancelSchema = /* @__PURE__ */ cancelSchema();

/** What an accepted answer returns: the interaction is resolved (4.5). */
export interface ActionResult {
  /** The interaction answered. */
  action_id: string;
  /** `resolved`; a newer service may add states. */
  state: 'resolved' | (string & {});
}

/** `data` of a successful answer. */
export const actionResultSchema = lazy(() =>
  z.looseObject({ action_id: z.string(), state: openEnum<'resolved'>() }),
);
/** `data` of a successful answer (`actionResultSchema`'s schema). */
export const ActionResultSchema = /* @__PURE__ */ actionResultSchema();

/** What `cancel` returns: whether a turn was cancelled (4.6). */
export interface CancelResult {
  /** The chat. */
  chat_id: string;
  /** Whether a running turn was cancelled. */
  cancelled: boolean;
}

/** `data` of `cancel` (4.6). */
export const cancelResultSchema = lazy(() => z.looseObject({ chat_id: uuid(), cancelled: z.boolean() }));
/** `data` of `cancel` (`cancelResultSchema`'s schema). */
export const CancelResultSchema = /* @__PURE__ */ cancelResultSchema();

/**
 * How each kind is answered (4.5, 6), the one table of it: the answer endpoint's path segment (under
 * `chats/{chat_id}/actions/`) and its body's schema. The client's answers, the mock's routes and its
 * inspector read it.
 */
export const ANSWERS = {
  tool_approval: {
    endpoint: 'approve-tool',
    get schema() {
      return approveToolSchema();
    },
  },
  plan_approval: {
    endpoint: 'respond-plan',
    get schema() {
      return respondPlanSchema();
    },
  },
  elicitation: {
    endpoint: 'respond-elicitation',
    get schema() {
      return respondElicitationSchema();
    },
  },
  auth_required: {
    endpoint: 'cancel-auth',
    get schema() {
      return cancelAuthSchema();
    },
  },
} as const satisfies Record<InteractionKind, { endpoint: string; schema: z.ZodMiniType }>;

/** The path segment of an answer endpoint (4.5). */
export type AnswerEndpoint = (typeof ANSWERS)[InteractionKind]['endpoint'];
