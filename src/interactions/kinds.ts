import { decisionIssues } from '../contract/decisions.js';
import { type ElicitationValidator, elicitationIssues } from '../contract/elicitation.js';
import type { ActionRequiredPayload } from '../contract/events.js';
import type {
  ActionResult,
  ElicitationPayload,
  PlanApprovalPayload,
  ToolApprovalPayload,
} from '../contract/interactions.js';
import type { PlainIssue } from '../contract/issues.js';
import type { ToolCall } from '../contract/turn.js';
import { ValidationError } from '../errors/index.js';
import type { RequestOptions } from '../http/transport.js';
import { classify } from './classify.js';
import { type AnswerContext, BaseInteraction } from './interaction.js';

/** The turn asks to run tools: approve all, reject all, or decide per tool. */
export class ToolApproval extends BaseInteraction {
  readonly kind = 'tool_approval' as const;
  /** The tools asked for. */
  readonly payload: ToolApprovalPayload;

  /** @internal */
  constructor(raw: ActionRequiredPayload, payload: ToolApprovalPayload, context: AnswerContext) {
    super(raw, context);
    this.payload = payload;
  }

  /** The tools the turn asks to run. */
  get tools(): ToolCall[] {
    return this.payload.tools;
  }

  /** Runs every tool. */
  approveAll(options?: RequestOptions): Promise<ActionResult> {
    return this.decide(Object.fromEntries(this.tools.map((t) => [t.tool_use_id, true])), options);
  }

  /** Skips every tool. */
  rejectAll(options?: RequestOptions): Promise<ActionResult> {
    return this.decide(Object.fromEntries(this.tools.map((t) => [t.tool_use_id, false])), options);
  }

  /** Decides per tool, by `tool_use_id`: a decision for every tool asked, and for no other, is required. */
  decide(decisions: Record<string, boolean>, options?: RequestOptions): Promise<ActionResult> {
    const list = Object.entries(decisions).map(([tool_use_id, approved]) => ({ tool_use_id, approved }));
    const issues = decisionIssues(
      this.tools.map((t) => t.tool_use_id),
      list,
    );
    if (issues.length > 0) throw new ValidationError(issues as [PlainIssue, ...PlainIssue[]]);
    return this.send(this.kind, { decisions: list }, options);
  }
}

/** The model proposes a plan (any mode): approve or reject it. */
export class PlanApproval extends BaseInteraction {
  readonly kind = 'plan_approval' as const;
  /** The plan. */
  readonly payload: PlanApprovalPayload;

  /** @internal */
  constructor(raw: ActionRequiredPayload, payload: PlanApprovalPayload, context: AnswerContext) {
    super(raw, context);
    this.payload = payload;
  }

  /** The proposed plan: title, context, steps, notes. */
  get plan(): PlanApprovalPayload['plan'] {
    return this.payload.plan;
  }

  /** Lets the plan run. */
  approve(options?: RequestOptions): Promise<ActionResult> {
    return this.send(this.kind, { action: 'approve' }, options);
  }

  /** Refuses the plan. */
  reject(options?: RequestOptions): Promise<ActionResult> {
    return this.send(this.kind, { action: 'reject' }, options);
  }
}

/** A connector asks for input: accept with content that satisfies the schema, decline, or cancel. */
export class Elicitation extends BaseInteraction {
  readonly kind = 'elicitation' as const;
  /** The message, the mode and the JSON Schema of the answer. */
  readonly payload: ElicitationPayload;
  readonly #validate: ElicitationValidator | undefined;

  /** @internal */
  constructor(raw: ActionRequiredPayload, payload: ElicitationPayload, context: AnswerContext) {
    super(raw, context);
    this.payload = payload;
    this.#validate = context.validate;
  }

  /**
   * The problems `content` would be refused for (none: it can be sent): its shape always, `requested_schema`
   * with the client's `elicitationValidator` (by default a JSON Schema validator in Node, Deno and Bun).
   */
  check(content: Record<string, unknown>): Promise<PlainIssue[]> {
    return elicitationIssues(this.payload.requested_schema, content, this.#validate);
  }

  /** Answers with `content`, checked against `requested_schema` first (a `ValidationError` names the field). */
  async accept(
    content: Record<string, string | number | boolean | null>,
    options?: RequestOptions,
  ): Promise<ActionResult> {
    const issues = await this.check(content);
    if (issues.length > 0) throw new ValidationError(issues as [PlainIssue, ...PlainIssue[]]);
    return this.send(this.kind, { action: 'accept', content }, options);
  }

  /** Declines to answer. */
  decline(options?: RequestOptions): Promise<ActionResult> {
    return this.send(this.kind, { action: 'decline' }, options);
  }

  /**
   * Answers `cancel` to the question; the turn goes on. Cancelling the whole turn
   * is `TurnStream.cancel()` or `client.turns.cancel()`.
   */
  cancel(options?: RequestOptions): Promise<ActionResult> {
    return this.send(this.kind, { action: 'cancel' }, options);
  }
}

/** A tool needs a connector that is not connected: connect it in the application, or cancel. */
export class AuthRequired extends BaseInteraction {
  readonly kind = 'auth_required' as const;
  /** What the service suggests: `connect_in_ui_or_cancel`. */
  readonly resolution: string | undefined;
  /** Any further payload (its shape is not part of the contract). */
  readonly payload: unknown;

  /** @internal */
  constructor(raw: ActionRequiredPayload, context: AnswerContext) {
    super(raw, context);
    this.resolution = raw.resolution;
    this.payload = raw.payload;
  }

  /**
   * Cancels the pause: the model continues without that tool; the turn goes on. Cancelling the whole
   * turn is `TurnStream.cancel()` or `client.turns.cancel()`.
   */
  cancel(options?: RequestOptions): Promise<ActionResult> {
    return this.send(this.kind, {}, options);
  }
}

/** An interaction of a kind this version does not know, or whose payload breaks the contract. */
export class UnknownInteraction extends BaseInteraction {
  readonly kind = 'unknown' as const;
  /** The kind as it came. */
  readonly rawKind: string;

  /** @internal */
  constructor(raw: ActionRequiredPayload, context: AnswerContext) {
    super(raw, context);
    this.rawKind = raw.kind;
  }
}

/** An interaction, discriminated by `kind`, that knows its endpoint, its body and its deadline. */
export type Interaction = ToolApproval | PlanApproval | Elicitation | AuthRequired | UnknownInteraction;

/** Types a `message.action_required` payload by its kind, with answer methods. */
export function toInteraction(raw: ActionRequiredPayload, context: AnswerContext): Interaction {
  const typed = classify(raw);
  switch (typed.kind) {
    case 'tool_approval':
      return new ToolApproval(raw, typed.payload, context);
    case 'plan_approval':
      return new PlanApproval(raw, typed.payload, context);
    case 'elicitation':
      return new Elicitation(raw, typed.payload, context);
    case 'auth_required':
      return new AuthRequired(raw, context);
    case 'unknown':
      return new UnknownInteraction(raw, context);
  }
}
