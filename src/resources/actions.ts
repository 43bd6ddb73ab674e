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
import { ApiError, ConnectionError, TimeoutError } from '../errors.js';
import { retrying } from '../http/policy-run.js';
import type { RequestOptions } from '../http/transport.js';
import { checkInput } from '../validate.js';
import { chatPath } from './chats.js';
import { Resource } from './resource.js';

/** The answer endpoints of 4.5. */
export type AnswerEndpoint = 'approve-tool' | 'respond-plan' | 'respond-elicitation' | 'cancel-auth';

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
      kind: 'cancel',
      options,
    } as const;
    return (await this.transport.request(call)).data;
  }

  /**
   * @internal Sends an answer, repeating what 7.5 allows but never after `until` (the interaction's
   * deadline). An interaction resolves once (3.3): when the SDK resent an answer whose response was lost,
   * a 409 `api_v1_action_not_pending` to the resend means the lost send most likely applied, so it
   * resolves as that send would have.
   */
  async answer(
    chatId: string,
    endpoint: AnswerEndpoint,
    body: unknown,
    options: RequestOptions | undefined,
    until?: number,
  ): Promise<ActionResult> {
    const path = `chats/${chatPath(chatId)}/actions/${endpoint}`;
    checkInput(ANSWER_SCHEMAS[endpoint], body);
    const call = { method: 'POST', path, body, schema: ActionResultSchema, kind: 'answer', options } as const;
    let lost = false;
    const send = async (attempt: number): Promise<ActionResult> => {
      try {
        return (await this.transport.attempt(call, attempt)).data;
      } catch (error) {
        if (lost && error instanceof ApiError && error.is('api_v1_action_not_pending')) {
          this.transport.logger?.warn?.('the lost answer applied: its resend found it resolved', { path });
          return { action_id: (body as { action_id: string }).action_id, state: 'resolved' };
        }
        lost ||= error instanceof ConnectionError || error instanceof TimeoutError;
        throw error;
      }
    };
    return retrying(send, {
      kind: 'answer',
      settings: this.transport.retrySettings(options),
      signal: options?.signal,
      deadline: until,
    });
  }
}
