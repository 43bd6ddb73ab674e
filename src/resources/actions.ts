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
import type { ApiPromise } from '../http/api-promise.js';
import type { RequestOptions } from '../http/transport.js';
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
   * @internal Sends the answer of `kind` to its endpoint, repeated as the policy's `answer` kind allows (7.5,
   * with its keyed-call rule: a lost send's outcome is unknown, `http/keyed.ts`), never after `until` (the
   * interaction's deadline).
   */
  answer(
    chatId: string,
    kind: InteractionKind,
    body: unknown,
    options: RequestOptions | undefined,
    until?: number,
  ): ApiPromise<ActionResult> {
    return this.api.call(async () => {
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
      return this.transport.request(call, { deadline: until });
    });
  }
}
