import {
  type ActionResult,
  ActionResultSchema,
  ANSWERS,
  type ApproveToolBody,
  type CancelAuthBody,
  type InteractionKind,
  type RespondElicitationBody,
  type RespondPlanBody,
} from '../contract/interactions.js';
import { AnswerOutcomeUnknownError, ApiError } from '../errors/index.js';
import type { ApiPromise } from '../http/api-promise.js';
import { answerMayHaveApplied } from '../http/policy.js';
import { retrying } from '../http/policy-run.js';
import type { RequestOptions, Result } from '../http/transport.js';
import { checkInput } from '../http/validate.js';
import { chatPath } from './chats.js';
import { Resource } from './resource.js';

/**
 * `client.actions`: one raw method per answer endpoint (4.5), for callers holding an action id. Cancelling
 * the turn (4.6) is `client.turns.cancel`.
 */
export class Actions extends Resource {
  /** Answers a `tool_approval`: one decision per asked tool. */
  approveTool(chatId: string, body: ApproveToolBody, options?: RequestOptions): ApiPromise<ActionResult> {
    return this.answer(chatId, 'tool_approval', body, options);
  }

  /** Answers a `plan_approval`: `approve` or `reject`. */
  respondPlan(chatId: string, body: RespondPlanBody, options?: RequestOptions): ApiPromise<ActionResult> {
    return this.answer(chatId, 'plan_approval', body, options);
  }

  /** Answers an `elicitation`: `accept` with `content`, `decline` or `cancel`. */
  respondElicitation(
    chatId: string,
    body: RespondElicitationBody,
    options?: RequestOptions,
  ): ApiPromise<ActionResult> {
    return this.answer(chatId, 'elicitation', body, options);
  }

  /** Cancels an `auth_required` pause: the model continues without that tool. */
  cancelAuth(chatId: string, body: CancelAuthBody, options?: RequestOptions): ApiPromise<ActionResult> {
    return this.answer(chatId, 'auth_required', body, options);
  }

  /**
   * @internal Sends the answer of `kind` to its endpoint, repeating what 7.5 allows but never after `until` (the interaction's
   * deadline). A 409 `api_v1_action_not_pending` to a resend of a send that got no response cannot say
   * whether that send applied (7.5: "already resolved, another request claimed it first, or outcome
   * unknown"): it is an `AnswerOutcomeUnknownError`, never a success.
   */
  answer(
    chatId: string,
    kind: InteractionKind,
    body: unknown,
    options: RequestOptions | undefined,
    until?: number,
  ): ApiPromise<ActionResult> {
    return this.call(async () => {
      const { endpoint, schema } = ANSWERS[kind];
      const path = `chats/${chatPath(chatId)}/actions/${endpoint}`;
      checkInput(schema, body);
      const call = {
        method: 'POST',
        path,
        body,
        schema: ActionResultSchema,
        kind: 'answer',
        options,
      } as const;
      /** The error of the first send that got no response: it may have applied. */
      let lost: { error: unknown } | undefined;
      const send = async (attempt: number): Promise<Result<ActionResult>> => {
        try {
          return await this.transport.attempt(call, attempt);
        } catch (error) {
          if (lost && error instanceof ApiError && error.is('api_v1_action_not_pending')) {
            this.transport.logger?.warn?.('the outcome of an answer is unknown: its send was lost', { path });
            throw new AnswerOutcomeUnknownError(error, lost.error);
          }
          // Of the failures that may have applied, only these are resent: no response came back.
          if (!lost && answerMayHaveApplied(error)) lost = { error };
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
