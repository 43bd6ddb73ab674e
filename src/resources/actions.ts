import { ANSWER_ENDPOINTS } from '../contract/endpoints.js';
import type {
  ActionResult,
  ApproveToolBody,
  CancelAuthBody,
  InteractionKind,
  RespondElicitationBody,
  RespondPlanBody,
} from '../contract/interactions.js';
import type { ApiPromise } from '../http/api-promise.js';
import type { RequestOptions } from '../http/transport.js';
import { type BodyOf, Resource } from './resource.js';

/**
 * `client.actions`: one raw method per answer endpoint (4.5), for callers holding an action id. Cancelling
 * the turn (4.6) is `client.turns.cancel`.
 */
export class Actions extends Resource {
  /** Answers a `tool_approval`: one decision per asked tool. */
  approveTool(chatId: string, body: ApproveToolBody, options?: RequestOptions): ApiPromise<ActionResult> {
    return this.api.call('actions.approveTool', { chat_id: chatId }, options, body);
  }

  /** Answers a `plan_approval`: `approve` or `reject`. */
  respondPlan(chatId: string, body: RespondPlanBody, options?: RequestOptions): ApiPromise<ActionResult> {
    return this.api.call('actions.respondPlan', { chat_id: chatId }, options, body);
  }

  /** Answers an `elicitation`: `accept` with `content`, `decline` or `cancel`. */
  respondElicitation(
    chatId: string,
    body: RespondElicitationBody,
    options?: RequestOptions,
  ): ApiPromise<ActionResult> {
    return this.api.call('actions.respondElicitation', { chat_id: chatId }, options, body);
  }

  /** Cancels an `auth_required` pause: the model continues without that tool. */
  cancelAuth(chatId: string, body: CancelAuthBody, options?: RequestOptions): ApiPromise<ActionResult> {
    return this.api.call('actions.cancelAuth', { chat_id: chatId }, options, body);
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
    const name = ANSWER_ENDPOINTS[kind];
    const answer = body as BodyOf<typeof name>;
    return this.api.call(name, { chat_id: chatId }, options, answer, (call) =>
      this.transport.request(call, { deadline: until }),
    );
  }
}
