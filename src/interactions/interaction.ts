import type { ElicitationValidator } from '../contract/elicitation.js';
import type { ActionRequiredPayload } from '../contract/events.js';
import type { ActionResult, InteractionKind } from '../contract/interactions.js';
import { LIMITS } from '../contract/limits.js';
import { InteractionExpiredError } from '../errors/index.js';
import type { RequestOptions } from '../http/transport.js';

/** Sends an answer to the endpoint of the kind (the contract's `ANSWERS`), repeating what 7.5 allows but never after `until` (epoch ms). */
export type AnswerSender = (
  chatId: string,
  kind: InteractionKind,
  body: Record<string, unknown>,
  options: RequestOptions | undefined,
  until: number,
) => Promise<ActionResult>;

/** What an interaction needs to answer itself. */
export interface AnswerContext {
  /** Sends the answers (the client's answer endpoints). */
  answer: AnswerSender;
  chatId: string;
  /** When the event arrived (epoch ms). */
  receivedAt: number;
  /** Checks an elicitation answer against its schema; default the entry's (`jsonSchemaValidator` in Node). */
  validate?: ElicitationValidator | undefined;
}

/** What every interaction has: its action id, its deadline, and its raw event. */
export abstract class BaseInteraction {
  /** The opaque id the answer carries; valid only for this turn and credential. */
  readonly action_id: string;
  /** When it arrived (epoch ms). */
  readonly receivedAt: number;
  /** When it expires (epoch ms): 110 s after it arrived. */
  readonly expiresAt: number;
  /** The chat of the turn that asks. */
  readonly chatId: string;
  /** The `message.action_required` payload as it came. */
  readonly raw: ActionRequiredPayload;
  readonly #answer: AnswerSender;

  /** @internal Interactions come from a turn's stream. */
  constructor(raw: ActionRequiredPayload, context: AnswerContext) {
    this.raw = raw;
    this.action_id = raw.action_id;
    this.chatId = context.chatId;
    this.receivedAt = context.receivedAt;
    this.expiresAt = context.receivedAt + LIMITS.interactionLifetimeMs;
    this.#answer = context.answer;
  }

  /** Whether the deadline has passed. */
  expired(now: number = Date.now()): boolean {
    return now >= this.expiresAt;
  }

  /** @internal Sends the answer of `kind`: refused locally after the deadline, repeated (where 7.5 allows) only until it. */
  protected send(
    kind: InteractionKind,
    body: Record<string, unknown>,
    options: RequestOptions | undefined,
  ): Promise<ActionResult> {
    if (this.expired()) {
      throw new InteractionExpiredError(
        `interaction ${this.action_id} expired at ${new Date(this.expiresAt).toISOString()}; nothing was sent`,
      );
    }
    return this.#answer(this.chatId, kind, { action_id: this.action_id, ...body }, options, this.expiresAt);
  }
}
