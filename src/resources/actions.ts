import type * as z from 'zod/mini';
import {
  type ActionResult,
  ActionResultSchema,
  type ApproveToolBody,
  ApproveToolSchema,
  type CancelAuthBody,
  CancelAuthSchema,
  type CancelBody,
  type CancelResult,
  CancelResultSchema,
  CancelSchema,
  type RespondElicitationBody,
  RespondElicitationSchema,
  type RespondPlanBody,
  RespondPlanSchema,
} from '../contract/interactions.js';
import { ApiError, ConnectionError, type ConvoError, TimeoutError } from '../errors.js';
import { outageNeverLeft, type RetryRule } from '../http/retry.js';
import type { RequestOptions } from '../http/transport.js';
import type { AnswerEndpoint } from '../interactions/interaction.js';
import { checkInput } from '../validate.js';
import { chatPath } from './chats.js';
import { Resource } from './resource.js';

/**
 * Answers that may be sent again (7.5): the decision never left (`retry_action: retry`), the interaction
 * backend is down, or no response came back. An interaction is resolved once (3.3), so a resend of an
 * answer that did arrive gets 409 `api_v1_action_not_pending` and changes nothing. Never 404, 409, or a
 * 503 whose outcome is unknown (`check_status`): that one is followed on the stream or in the message
 * listing instead.
 */
export const answerRepeatable: RetryRule = (error: ConvoError) =>
  error instanceof ConnectionError ||
  error instanceof TimeoutError ||
  outageNeverLeft(error) ||
  (error instanceof ApiError && error.code === 'api_v1_interaction_backend_unavailable');

/** Cancelling is idempotent (4.6): a lost response, or a cancellation that could not be delivered, is repeated. */
const cancelRepeatable: RetryRule = (error: ConvoError) =>
  error instanceof ConnectionError ||
  outageNeverLeft(error) ||
  (error instanceof ApiError && error.status === 502 && error.code === 'api_v1_core_unavailable');

const ANSWER_SCHEMAS: Record<AnswerEndpoint, z.ZodMiniType<unknown>> = {
  'approve-tool': ApproveToolSchema,
  'respond-plan': RespondPlanSchema,
  'respond-elicitation': RespondElicitationSchema,
  'cancel-auth': CancelAuthSchema,
};

/** `client.actions`: one raw method per answer endpoint (4.5, 4.6), for callers holding an action id. */
export class Actions extends Resource {
  /** Answers a `tool_approval`: one decision per asked tool. */
  approveTool(chatId: string, body: ApproveToolBody, options?: RequestOptions): Promise<ActionResult> {
    return this.answer(chatId, 'approve-tool', body, options);
  }

  /** Answers a `plan_approval`: `approve` or `reject`. */
  respondPlan(chatId: string, body: RespondPlanBody, options?: RequestOptions): Promise<ActionResult> {
    return this.answer(chatId, 'respond-plan', body, options);
  }

  /** Answers an `elicitation`: `accept` with `content`, `decline` or `cancel`. */
  respondElicitation(
    chatId: string,
    body: RespondElicitationBody,
    options?: RequestOptions,
  ): Promise<ActionResult> {
    return this.answer(chatId, 'respond-elicitation', body, options);
  }

  /** Cancels an `auth_required` pause: the model continues without that tool. */
  cancelAuth(chatId: string, body: CancelAuthBody, options?: RequestOptions): Promise<ActionResult> {
    return this.answer(chatId, 'cancel-auth', body, options);
  }

  /** Cancels the chat's running turn (or, with `action_id`, the turn of that interaction). Idempotent. */
  async cancel(chatId: string, body: CancelBody = {}, options?: RequestOptions): Promise<CancelResult> {
    const path = `chats/${chatPath(chatId)}/actions/cancel`;
    checkInput(CancelSchema, body);
    const call = {
      method: 'POST',
      path,
      body,
      schema: CancelResultSchema,
      retry: cancelRepeatable,
      options,
    } as const;
    return (await this.transport.request(call)).data;
  }

  /** @internal Sends an answer, repeating what 7.5 allows but never after `until` (the interaction's deadline). */
  async answer(
    chatId: string,
    endpoint: AnswerEndpoint,
    body: unknown,
    options: RequestOptions | undefined,
    until?: number,
  ): Promise<ActionResult> {
    const path = `chats/${chatPath(chatId)}/actions/${endpoint}`;
    checkInput(ANSWER_SCHEMAS[endpoint], body);
    const call = {
      method: 'POST',
      path,
      body,
      schema: ActionResultSchema,
      retry: answerRepeatable,
      options,
      until,
    } as const;
    return (await this.transport.request(call)).data;
  }
}
