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
import type { ApiPromise } from '../http/api-promise.js';
import { retrying } from '../http/policy-run.js';
import type { RequestOptions, Result } from '../http/transport.js';
import type { AnswerEndpoint } from '../interactions/interaction.js';
import { checkInput } from '../validate.js';
import { chatPath } from './chats.js';
import { Resource } from './resource.js';

const ANSWER_SCHEMAS: Record<AnswerEndpoint, z.ZodMiniType<unknown>> = {
  'approve-tool': ApproveToolSchema,
  'respond-plan': RespondPlanSchema,
  'respond-elicitation': RespondElicitationSchema,
  'cancel-auth': CancelAuthSchema,
};

/** `client.actions`: one raw method per answer endpoint (4.5, 4.6), for callers holding an action id. */
export class Actions extends Resource {
  /** Answers a `tool_approval`: one decision per asked tool. */
  approveTool(chatId: string, body: ApproveToolBody, options?: RequestOptions): ApiPromise<ActionResult> {
    return this.answer(chatId, 'approve-tool', body, options);
  }

  /** Answers a `plan_approval`: `approve` or `reject`. */
  respondPlan(chatId: string, body: RespondPlanBody, options?: RequestOptions): ApiPromise<ActionResult> {
    return this.answer(chatId, 'respond-plan', body, options);
  }

  /** Answers an `elicitation`: `accept` with `content`, `decline` or `cancel`. */
  respondElicitation(
    chatId: string,
    body: RespondElicitationBody,
    options?: RequestOptions,
  ): ApiPromise<ActionResult> {
    return this.answer(chatId, 'respond-elicitation', body, options);
  }

  /** Cancels an `auth_required` pause: the model continues without that tool. */
  cancelAuth(chatId: string, body: CancelAuthBody, options?: RequestOptions): ApiPromise<ActionResult> {
    return this.answer(chatId, 'cancel-auth', body, options);
  }

  /** Cancels the chat's running turn (or, with `action_id`, the turn of that interaction). Idempotent. */
  cancel(chatId: string, body: CancelBody = {}, options?: RequestOptions): ApiPromise<CancelResult> {
    return this.call(async () => {
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
      return this.transport.request(call);
    });
  }

  /**
   * @internal Sends an answer, repeating what 7.5 allows but never after `until` (the interaction's
   * deadline). An interaction resolves once (3.3): when the SDK resent an answer whose response was lost,
   * a 409 `api_v1_action_not_pending` to the resend means the lost send most likely applied, so it
   * resolves as that send would have.
   */
  answer(
    chatId: string,
    endpoint: AnswerEndpoint,
    body: unknown,
    options: RequestOptions | undefined,
    until?: number,
  ): ApiPromise<ActionResult> {
    return this.call(async () => {
      const path = `chats/${chatPath(chatId)}/actions/${endpoint}`;
      checkInput(ANSWER_SCHEMAS[endpoint], body);
      const call = {
        method: 'POST',
        path,
        body,
        schema: ActionResultSchema,
        kind: 'answer',
        options,
      } as const;
      let lost = false;
      const send = async (attempt: number): Promise<Result<ActionResult>> => {
        try {
          return await this.transport.attempt(call, attempt);
        } catch (error) {
          if (lost && error instanceof ApiError && error.is('api_v1_action_not_pending')) {
            this.transport.logger?.warn?.('the lost answer applied: its resend found it resolved', { path });
            return resolvedByLostSend((body as { action_id: string }).action_id, error);
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
    });
  }
}

/**
 * The result of an answer whose lost send applied, as the resend learned it: the interaction is resolved.
 * Its raw response is the resend's 409 (body already read), with that response's request id.
 */
function resolvedByLostSend(actionId: string, conflict: ApiError): Result<ActionResult> {
  return {
    data: { action_id: actionId, state: 'resolved' },
    meta: { request_id: conflict.requestId ?? '' },
    response: new Response(null, { status: conflict.status, headers: conflict.headers }),
  };
}
