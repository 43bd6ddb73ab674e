import { type ActionResult, type Client, ConvoError, type RequestOptions } from '../index.js';
import type { InteractionAnswer, InteractionData } from './parts.js';

/**
 * Answers an interaction shown as a `data-convo-interaction` part with the user's choice, through the
 * right endpoint (`respond-plan`, `respond-elicitation`, `cancel-auth`); the turn then goes on in the
 * same message. Works in the browser or on the server, with any client of the same credential.
 */
export function answerInteraction<D extends InteractionData>(
  client: Client,
  data: D,
  answer: InteractionAnswer<D['kind']>,
  options?: RequestOptions,
): Promise<ActionResult> {
  const { chatId, actionId: action_id } = data;
  const choice = answer as InteractionAnswer;
  switch (data.kind) {
    case 'plan_approval':
      if (choice.action === 'approve' || choice.action === 'reject')
        return client.actions.respondPlan(chatId, { action_id, action: choice.action }, options);
      break;
    case 'elicitation':
      if (choice.action === 'accept' || choice.action === 'decline' || choice.action === 'cancel')
        return client.actions.respondElicitation(chatId, { action_id, ...choice }, options);
      break;
    case 'auth_required':
      if (choice.action === 'cancel') return client.actions.cancelAuth(chatId, { action_id }, options);
      break;
  }
  return Promise.reject(
    new ConvoError(`an interaction of kind ${data.kind} cannot be answered with "${String(choice.action)}"`),
  );
}
