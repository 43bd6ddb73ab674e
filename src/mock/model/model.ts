import type { PermissionMode } from '../../contract/chat.js';
import type {
  ElicitationPayload,
  PlanApprovalPayload,
  ToolApprovalPayload,
} from '../../contract/interactions.js';
import type { Step, ToolCall } from '../../contract/turn.js';
import type { TurnChannel } from '../state/records.js';

/** The attachments of a turn as the model sees them: every list present, possibly empty. */
export interface ModelAttachments {
  /** Libraries. */
  workspace_ids: number[];
  /** Files. */
  file_ids: number[];
  /** Skills. */
  skill_ids: number[];
  /** Connectors. */
  mcp_server_ids: number[];
}

/** What the fake model is asked to answer. */
export interface ModelInput {
  /** The chat of the turn. */
  chat_id: string;
  /** The turn's id (its `message_id`). */
  message_id: number;
  /** The content sent, directives included. */
  content: string;
  /** `manual` or `auto`. */
  permission_mode: PermissionMode;
  /** `sync` (the blocking send) or `stream`. */
  channel: TurnChannel;
  /** The model of the turn (a COMPLETION model of the fixtures). */
  model_id: number;
  /** The attachments. */
  attachments: ModelAttachments;
  /** Aborts when the turn is cancelled or cut off; the engine stops reading the model then anyway. */
  signal: AbortSignal;
}

/** Who produced an interaction's answer: the client, its expiry, or the service closing it (7.5). */
export type AnswerSource = 'client' | 'expiry' | 'service';

/**
 * The answer to an interaction: the value of the `yield` that raised it. An unanswered interaction that
 * expires, or one the service closes, is answered negatively (rejected, `reject`, `cancel`, `cancel`) with
 * `by` telling which.
 */
export type InteractionAnswer =
  | {
      kind: 'tool_approval';
      decisions: Array<{ tool_use_id: string; approved: boolean }>;
      by: AnswerSource;
    }
  | { kind: 'plan_approval'; action: 'approve' | 'reject'; by: AnswerSource }
  | {
      kind: 'elicitation';
      action: 'accept' | 'decline' | 'cancel';
      content?: Record<string, unknown>;
      by: AnswerSource;
    }
  | { kind: 'auth_required'; action: 'cancel'; by: AnswerSource };

/** An interaction the model raises; the answer comes back as the value of its `yield`. */
export type InteractionAction =
  | { type: 'interaction'; kind: 'tool_approval'; payload: ToolApprovalPayload }
  | { type: 'interaction'; kind: 'plan_approval'; payload: PlanApprovalPayload }
  | { type: 'interaction'; kind: 'elicitation'; payload: ElicitationPayload }
  | {
      type: 'interaction';
      kind: 'auth_required';
      payload: Record<string, unknown>;
      /** `connect_in_ui_or_cancel` when absent. */
      resolution?: string;
    };

/**
 * One thing the fake model does:
 * - `text`: a `message.delta` appending `text` (nothing for an empty text);
 * - `replace`: a `message.delta` with `replace: true`, the answer becomes `text` (provider failover);
 * - `step`: a `message.step`; without `step`, the reasoning step `Thinking`; given fields override it;
 * - `tool`: a tool step carrying `tool` in `tool_calls`;
 * - `interaction`: a `message.action_required` (sync channel: the turn fails with `interaction_in_auto_mode`);
 * - `fail`: the turn ends with `message.error` of `code` (sync: the status of 7.3);
 * - `wait`: `ms` of silence on the mock's clock (`Infinity`: until cancelled).
 */
export type ModelAction =
  | { type: 'text'; text: string }
  | { type: 'replace'; text: string }
  | { type: 'step'; step?: Partial<Step> }
  | { type: 'tool'; tool: ToolCall }
  | InteractionAction
  | { type: 'fail'; code: string; message?: string; retryable?: boolean }
  | { type: 'wait'; ms: number };

/**
 * The fake model: an async generator of actions. The mock runs it for every turn; the answer to an
 * interaction comes back as the value of the `yield` that raised it (undefined for other actions).
 *
 * @example
 * ```ts
 * const model: FakeModel = async function* ({ content }) {
 *   yield { type: 'step' };
 *   const answer = yield {
 *     type: 'interaction',
 *     kind: 'plan_approval',
 *     payload: { plan: { title: 'Plan', context: content, steps: [{ step: 1, action: 'Look' }], notes: '' } },
 *   };
 *   if (answer?.kind === 'plan_approval' && answer.action === 'reject') {
 *     yield { type: 'text', text: 'Stopped.' };
 *     return;
 *   }
 *   yield { type: 'text', text: 'Done ' };
 *   yield { type: 'wait', ms: 10 };
 *   yield { type: 'text', text: 'here.' };
 * };
 * const mock = createMock({ model });
 * ```
 */
export type FakeModel = (
  input: ModelInput,
) => AsyncIterable<ModelAction, unknown, InteractionAnswer | undefined>;
