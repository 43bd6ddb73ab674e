import type { Context } from 'hono';
import type * as z from 'zod/mini';
import { ANSWER_ENDPOINTS } from '../../../contract/endpoints.js';
import { ANSWERS, CancelSchema, type InteractionKind } from '../../../contract/interactions.js';
import type { InteractionAnswer } from '../../model/model.js';
import { parseChatId, visibleChat } from '../../state/chat-records.js';
import type { InteractionRecord } from '../../state/records.js';
import {
  checkDecisions,
  checkElicitationContent,
  findInteraction,
  ownInteraction,
} from '../../turns/interactions.js';
import { readJson, validate } from '../../wire/input.js';
import { success } from '../../wire/respond.js';
import type { MockEnv } from '../auth.js';
import { faultAfter, faultFailure } from '../faults.js';
import type { Handlers } from '../handler.js';
import type { RoutePath } from '../route-paths.js';
import type { SendContext } from '../send.js';

/** The context of an answer endpoint's handler: its path holds the chat id. */
type AnswerContext = Context<MockEnv, RoutePath<(typeof ANSWER_ENDPOINTS)[InteractionKind]>>;

/**
 * An answer endpoint: the kind it answers, its body schema (the contract's `ANSWERS`), and how a valid body
 * becomes the answer.
 */
interface AnswerEndpoint<B extends { action_id: string }> {
  kind: InteractionKind;
  schema: z.ZodMiniType<B>;
  /** The model's answer; throws 422 for what the kind needs beyond the schema. */
  answer(interaction: InteractionRecord, body: B): InteractionAnswer;
}

/**
 * The interaction answers (4.5) and the cancel (4.6). After the scope check (403), an answer is checked in
 * this order: body 400/413, schema 422, the interaction (404 `api_v1_action_not_found`: unknown, expired,
 * another credential's, another chat's, or of another kind; 409 `api_v1_action_not_pending`), what its kind
 * needs (422), then a `respond` fault, then it is applied.
 */
export function actionHandlers(context: SendContext) {
  const { store, engine, faults } = context;

  /** The handler of an answer endpoint. */
  const answers =
    <B extends { action_id: string }>(spec: AnswerEndpoint<B>) =>
    async (c: AnswerContext) => {
      const credential = c.get('credential');
      const request = c.req.raw;
      const body = validate(spec.schema, await readJson(request));
      // The chat id must at least be a UUID; every mismatch is the same 404.
      const chatId = parseChatId(c.req.param('chat_id')) ?? '';
      const interaction = findInteraction(store, credential, chatId, body.action_id, spec.kind);
      const answer = spec.answer(interaction, body);
      answerFault(context, interaction, answer, request);
      engine.resolve(interaction, answer);
      const after = await faultAfter(faults, 'answer', request);
      return (
        after ??
        success({ action_id: interaction.action_id, state: 'resolved' }, { message: 'Interaction resolved.' })
      );
    };

  return {
    [ANSWER_ENDPOINTS.tool_approval]: answers({
      kind: 'tool_approval',
      schema: ANSWERS.tool_approval.schema,
      answer: (interaction, body) => ({
        kind: 'tool_approval',
        decisions: checkDecisions(interaction, body.decisions),
        by: 'client',
      }),
    }),
    [ANSWER_ENDPOINTS.plan_approval]: answers({
      kind: 'plan_approval',
      schema: ANSWERS.plan_approval.schema,
      answer: (_, body) => ({ kind: 'plan_approval', action: body.action, by: 'client' }),
    }),
    [ANSWER_ENDPOINTS.elicitation]: answers({
      kind: 'elicitation',
      schema: ANSWERS.elicitation.schema,
      answer: (interaction, body) => {
        if (body.action !== 'accept' || !body.content)
          return { kind: 'elicitation', action: body.action, by: 'client' };
        checkElicitationContent(interaction, body.content);
        return { kind: 'elicitation', action: 'accept', content: { ...body.content }, by: 'client' };
      },
    }),
    [ANSWER_ENDPOINTS.auth_required]: answers({
      kind: 'auth_required',
      schema: ANSWERS.auth_required.schema,
      answer: () => ({ kind: 'auth_required', action: 'cancel', by: 'client' }),
    }),

    'turns.cancel': async (c) => {
      const credential = c.get('credential');
      const request = c.req.raw;
      const body = validate(CancelSchema, await readJson(request));
      // 4.6: cancelling never creates a chat.
      const chat = visibleChat(store, credential, c.req.param('chat_id'));
      // 4.6 idempotent: an own interaction in any state names its turn; cancelling a finished one is a no-op.
      const interaction =
        body.action_id === undefined ? undefined : ownInteraction(store, credential, chat.id, body.action_id);
      const before = faults.take('cancel', request, 'before');
      // 7.6: a cancel that could not be delivered leaves the turn running.
      if (before && 'respond' in before) throw faultFailure(before.respond);
      const turnId = interaction?.turn_id ?? engine.runningIn(chat.id)?.turn.id;
      const cancelled = turnId !== undefined && engine.cancel(turnId);
      const after = await faultAfter(faults, 'cancel', request);
      return (
        after ??
        success(
          { chat_id: chat.id, cancelled },
          { message: cancelled ? 'Turn cancelled.' : 'No turn to cancel.' },
        )
      );
    },
  } satisfies Partial<Handlers>;
}

/**
 * The `respond` fault of an answer (7.5), with what each row does to the interaction: 409
 * `api_v1_action_result_unknown` (the service received and rejected the decision) closes it, the turn going
 * on as if refused; 503 `api_v1_action_result_unknown` (the decision left, no answer came) applies the
 * decision and closes it; any other (503 `api_v1_service_unavailable`, 503
 * `api_v1_interaction_backend_unavailable`, ...) leaves it pending.
 */
function answerFault(
  context: SendContext,
  interaction: InteractionRecord,
  answer: InteractionAnswer,
  request: Request,
) {
  const fault = context.faults.take('answer', request, 'before');
  if (!fault || !('respond' in fault)) return;
  const { respond } = fault;
  if (respond.code === 'api_v1_action_result_unknown') {
    if (respond.status === 503) context.engine.resolve(interaction, answer);
    else context.engine.close(interaction);
  }
  throw faultFailure(respond);
}
