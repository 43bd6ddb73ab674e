import type { Turn } from '../contract/turn.js';
import { answerMayHaveApplied } from '../http/keyed.js';
import type { Logger } from '../http/transport.js';
import type {
  AuthRequired,
  Elicitation,
  Interaction,
  PlanApproval,
  ToolApproval,
} from '../interactions/kinds.js';
import type { TurnCall } from './call.js';
import type { TurnStream, TurnStreamEvent } from './turn-stream.js';

/** What a tool handler decides: `true` runs every tool, `false` none, or one decision per `tool_use_id`. */
export type ToolDecision = boolean | Record<string, boolean>;
/** What a plan handler decides. */
export type PlanDecision = boolean | 'approve' | 'reject';
/** What an elicitation handler answers. */
export type ElicitationDecision =
  | { action: 'accept'; content: Record<string, string | number | boolean | null> }
  | { action: 'decline' }
  | { action: 'cancel' };

/** A value, or a promise of it: what a handler may return. */
export type MaybePromise<T> = T | Promise<T>;

/** One handler per interaction kind, plus observers; every handler may be async. */
export interface RunHandlers {
  /** Decides which tools run; default: none (every tool is rejected). */
  onToolApproval?: ((interaction: ToolApproval) => MaybePromise<ToolDecision>) | undefined;
  /** Approves or rejects a plan; default: reject. */
  onPlanApproval?: ((interaction: PlanApproval) => MaybePromise<PlanDecision>) | undefined;
  /** Answers a connector's form; default: decline. */
  onElicitation?: ((interaction: Elicitation) => MaybePromise<ElicitationDecision>) | undefined;
  /** Sees an `auth_required` pause before it is cancelled (cancel is its only answer). */
  onAuthRequired?: ((interaction: AuthRequired) => MaybePromise<void>) | undefined;
  /**
   * Each change of the text: with `replace` false `delta` extends the text, with `replace` true (a failover)
   * it is the whole new text: discard what was shown. `snapshot` is always the whole text after it.
   */
  onText?: ((delta: string, snapshot: string, replace: boolean) => void) | undefined;
  /** Every event. */
  onEvent?: ((event: TurnStreamEvent) => void) | undefined;
}

/**
 * Reads `stream` to its end, answering each interaction through its handler. A handler that throws (or an
 * answer the service refuses) cancels the turn cleanly: the stream is read to its `cancelled` end, then the
 * error is thrown. An answer that may have been applied is not a reason to cancel: the stream says what the
 * turn did (see `answerMayHaveApplied` in the retry policy; an `AnswerOutcomeUnknownError` is one).
 */
export async function runTurn(
  stream: TurnStream,
  call: TurnCall,
  handlers: RunHandlers,
  logger: Logger | undefined,
): Promise<Turn> {
  let failure: { error: unknown } | undefined;
  for await (const event of stream) {
    handlers.onEvent?.(event);
    if (event.type === 'delta') handlers.onText?.(event.text, event.snapshot, event.replace);
    if (event.type !== 'action_required' || failure) continue;
    try {
      await answer(event.interaction, handlers, stream);
    } catch (error) {
      if (answerMayHaveApplied(error)) {
        logger?.warn?.('an answer may have been applied; following the stream', {
          action_id: event.interaction.action_id,
        });
        continue;
      }
      failure = { error };
      await stream.cancel().catch((cancelError: unknown) => {
        logger?.warn?.('could not cancel the turn after a failed answer', { error: String(cancelError) });
      });
    }
  }
  // An answer's error is an error of this turn call: it says where the turn is like every other one.
  if (failure) throw call.stamp(failure.error);
  return stream.finalTurn();
}

async function answer(interaction: Interaction, handlers: RunHandlers, stream: TurnStream): Promise<unknown> {
  switch (interaction.kind) {
    case 'tool_approval': {
      const decision = (await handlers.onToolApproval?.(interaction)) ?? false;
      if (decision === true) return interaction.approveAll();
      if (decision === false) return interaction.rejectAll();
      return interaction.decide(decision);
    }
    case 'plan_approval': {
      const decision = (await handlers.onPlanApproval?.(interaction)) ?? 'reject';
      return decision === true || decision === 'approve' ? interaction.approve() : interaction.reject();
    }
    case 'elicitation': {
      const decision = (await handlers.onElicitation?.(interaction)) ?? { action: 'decline' };
      if (decision.action === 'accept') return interaction.accept(decision.content);
      return decision.action === 'decline' ? interaction.decline() : interaction.cancel();
    }
    case 'auth_required':
      await handlers.onAuthRequired?.(interaction);
      return interaction.cancel();
    case 'unknown':
      // Nothing can answer a kind this version does not know: cancel rather than hang until it expires.
      return stream.cancel();
  }
}
