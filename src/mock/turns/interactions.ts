import { Validator } from '@cfworker/json-schema';
import { decisionIssues } from '../../contract/decisions.js';
import { elicitationContentIssues } from '../../contract/elicitation.js';
import type { InteractionKind } from '../../contract/interactions.js';
import type { AnswerSource, InteractionAnswer } from '../model/model.js';
import type { InteractionRecord } from '../state/records.js';
import type { CredentialRecord, MockStore } from '../state/store.js';
import { validationFailure } from '../wire/input.js';
import { ApiFailure } from '../wire/respond.js';

/** A new `action_id`: `act_` and 32 random hex digits (128 bits), so that nobody guesses another's. */
export function newActionId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `act_${Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}

/**
 * The answer given when nobody answers: every tool rejected, the plan rejected, the elicitation cancelled,
 * the connection cancelled. Used on expiry and when the service closes an interaction (7.5).
 */
export function negativeAnswer(interaction: InteractionRecord, by: AnswerSource): InteractionAnswer {
  switch (interaction.kind) {
    case 'tool_approval':
      return {
        kind: 'tool_approval',
        decisions: toolUseIds(interaction).map((tool_use_id) => ({ tool_use_id, approved: false })),
        by,
      };
    case 'plan_approval':
      return { kind: 'plan_approval', action: 'reject', by };
    case 'elicitation':
      return { kind: 'elicitation', action: 'cancel', by };
    case 'auth_required':
      return { kind: 'auth_required', action: 'cancel', by };
  }
}

/**
 * The interaction `actionId` of `credential` in chat `chatId`, whatever its state: what `cancel` with an
 * `action_id` names (4.6: idempotent, so a resolved or expired one, or one of a finished turn, still
 * answers 200). 404 `api_v1_action_not_found` when unknown, another credential's or another chat's.
 */
export function ownInteraction(
  store: MockStore,
  credential: CredentialRecord,
  chatId: string,
  actionId: string,
): InteractionRecord {
  const interaction = store.interactionsById.get(actionId);
  if (!interaction || interaction.credential_id !== credential.id || interaction.chat_id !== chatId) {
    throw notFound();
  }
  return interaction;
}

/**
 * The interaction an answer endpoint names, checked in this order:
 * - 404 `api_v1_action_not_found` unless it is the credential's own in `chatId` (`ownInteraction`) and is
 *   of `kind` (answering at another kind's endpoint is "not found" there);
 * - 409 `api_v1_action_not_pending` when it was already resolved, at any time (3.3: resolved once, a second
 *   attempt is 409, also after its lifetime);
 * - 404 once expired (unanswered, or closed unanswered, past its lifetime);
 * - 409 `api_v1_action_not_pending` when closed (its turn ended, or the service closed it).
 */
export function findInteraction(
  store: MockStore,
  credential: CredentialRecord,
  chatId: string,
  actionId: string,
  kind: InteractionKind,
): InteractionRecord {
  const interaction = ownInteraction(store, credential, chatId, actionId);
  if (interaction.kind !== kind) throw notFound();
  if (interaction.state !== 'resolved' && isExpired(store, interaction)) throw notFound();
  if (interaction.state !== 'pending') {
    throw new ApiFailure(409, 'api_v1_action_not_pending', 'The interaction is no longer pending.');
  }
  return interaction;
}

function notFound(): ApiFailure {
  return new ApiFailure(404, 'api_v1_action_not_found', 'Interaction not found.');
}

/** Whether `interaction` expired, by the clock (the expiry timer may not have fired yet). */
function isExpired(store: MockStore, interaction: InteractionRecord): boolean {
  return interaction.state === 'expired' || store.clock.now() >= interaction.expires_at_ms;
}

/**
 * The decisions of `approve-tool` checked against the tools the turn asked (4.5, `decisionIssues`): 422
 * `api_v1_validation_error` for a tool without a decision, an unknown `tool_use_id`, or two decisions
 * for one tool.
 */
export function checkDecisions(
  interaction: InteractionRecord,
  decisions: ReadonlyArray<{ tool_use_id: string; approved: boolean }>,
): Array<{ tool_use_id: string; approved: boolean }> {
  const [first, ...rest] = decisionIssues(toolUseIds(interaction), decisions);
  if (first) throw validationFailure([first, ...rest]);
  return decisions.map(({ tool_use_id, approved }) => ({ tool_use_id, approved }));
}

/**
 * The `content` of an accepted elicitation checked against `payload.requested_schema` (4.5,
 * `elicitationContentIssues`): 422 `api_v1_validation_error` naming each failing field (`content.email`).
 */
export function checkElicitationContent(
  interaction: InteractionRecord,
  content: Record<string, unknown>,
): void {
  const schema = interaction.payload.requested_schema as Record<string, unknown>;
  const [first, ...rest] = elicitationContentIssues(Validator, schema, content);
  if (first) throw validationFailure([first, ...rest]);
}

function toolUseIds(interaction: InteractionRecord): string[] {
  const tools = interaction.payload.tools;
  return Array.isArray(tools) ? tools.map((tool: { tool_use_id: string }) => tool.tool_use_id) : [];
}
