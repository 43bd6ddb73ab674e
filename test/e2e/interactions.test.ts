import { expect } from 'vitest';
import type { Interaction, PlanApproval, TurnStream } from '../../src/index.js';
import { apiError } from '../support/api-error.js';
import { type Case, expectRefused, needsInProcessMock, runOnTargets } from './run-targets.js';
import { type Target, turnEnded } from './targets.js';

const newChatId = () => crypto.randomUUID();

/** Streams `content` until its first interaction; the stream is left open, waiting for the answer. */
async function until(
  stream: TurnStream,
): Promise<{ interaction: Interaction; rest: AsyncIterator<unknown> }> {
  const iterator = stream[Symbol.asyncIterator]();
  for (;;) {
    const next = await iterator.next();
    if (next.done) throw new Error('the turn ended without an interaction');
    if (next.value.type === 'action_required') return { interaction: next.value.interaction, rest: iterator };
  }
}

/** A streamed turn paused on a plan approval: the typed interaction and the rest of the stream. */
async function pendingPlan(t: Target): Promise<{ plan: PlanApproval; rest: AsyncIterator<unknown> }> {
  const { interaction, rest } = await until(
    t.client().turns.stream(newChatId(), { content: '[[mock:plan_approval]]' }),
  );
  if (interaction.kind !== 'plan_approval')
    throw new Error(`expected a plan approval, got ${interaction.kind}`);
  return { plan: interaction, rest };
}

async function drain(rest: AsyncIterator<unknown>): Promise<void> {
  for (;;) if ((await rest.next()).done) return;
}

function answer(t: Target, chatId: string, endpoint: string, body: unknown, token?: string) {
  return t.raw(`/api/v1/chats/${chatId}/actions/${endpoint}`, {
    method: 'POST',
    body,
    ...(token ? { token } : {}),
  });
}

/** Pauses a new streamed turn on its interaction, sends `body` (with its action_id) to `endpoint`, then cancels the turn. */
async function answerThenCancel(t: Target, content: string, endpoint: string, body: Record<string, unknown>) {
  const chatId = newChatId();
  const { interaction, rest } = await until(t.client().turns.stream(chatId, { content }));
  const reply = await answer(t, chatId, endpoint, { action_id: interaction.action_id, ...body });
  await t.client().turns.cancel(chatId);
  await drain(rest);
  return reply;
}

const tools = (turn: { steps: Array<{ tool_calls?: Array<{ name: string }> | undefined }> }) =>
  turn.steps.flatMap((s) => s.tool_calls ?? []).map((c) => c.name);

const cases: Case[] = [
  [
    '2.6 manual mode: message.action_required tool_approval with the asked tools and an opaque action_id',
    async (t) => {
      const stream = t.client().turns.stream(newChatId(), { content: '[[mock:tool_approval]]' });
      const { interaction, rest } = await until(stream);
      if (interaction.kind !== 'tool_approval') throw new Error(`kind ${interaction.kind}`);
      expect(interaction.tools).toEqual([
        { tool_use_id: 'toolu_1', name: 'search', server: 'github', input: expect.anything() },
      ]);
      expect(interaction.action_id).toBeTypeOf('string');
      await interaction.rejectAll();
      await drain(rest);
    },
  ],
  [
    'reading: an action_id is act_ and 32 hex digits (128 random bits)',
    async (t) => {
      const { plan, rest } = await pendingPlan(t);
      expect(plan.action_id).toMatch(/^act_[0-9a-f]{32}$/);
      await plan.approve();
      await drain(rest);
    },
  ],
  [
    '4.5 approve-tool approved: resolved, the tool runs (a step carries it), the text continues to completion',
    async (t) => {
      const stream = t
        .client()
        .turns.stream(newChatId(), { content: '[[mock:tool_approval]] [[mock:words n=4]]' });
      const { interaction, rest } = await until(stream);
      if (interaction.kind !== 'tool_approval') throw new Error(interaction.kind);
      expect(await interaction.approveAll()).toEqual({ action_id: interaction.action_id, state: 'resolved' });
      await drain(rest);
      const turn = await stream.finalTurn();
      expect([turn.status, tools(turn)]).toEqual(['completed', ['search']]);
      expect(turn.content.length).toBeGreaterThan(0);
    },
  ],
  [
    '4.5 approve-tool rejected: the tool is skipped and the text continues',
    async (t) => {
      const turn = await t
        .client()
        .turns.run(newChatId(), { content: '[[mock:tool_approval]]' }, { onToolApproval: () => false });
      expect([turn.status, tools(turn)]).toEqual(['completed', []]);
    },
  ],
  [
    '4.5 approve-tool needs a decision for every asked tool: a refused answer leaves the interaction pending',
    async (t) => {
      const chatId = newChatId();
      const { interaction, rest } = await until(
        t.client().turns.stream(chatId, { content: '[[mock:tool_approval]]' }),
      );
      const missing = await answer(t, chatId, 'approve-tool', {
        action_id: interaction.action_id,
        decisions: [{ tool_use_id: 'toolu_9', approved: true }],
      });
      expectRefused(missing.status);
      if (interaction.kind === 'tool_approval')
        expect((await interaction.approveAll()).state).toBe('resolved');
      await drain(rest);
    },
  ],
  [
    'reading: wrong decisions -> 422 api_v1_validation_error naming the unknown and the missing tool',
    async (t) => {
      const reply = await answerThenCancel(t, '[[mock:tool_approval]]', 'approve-tool', {
        decisions: [{ tool_use_id: 'toolu_9', approved: true }],
      });
      expect([reply.status, reply.body.message_code]).toEqual([422, 'api_v1_validation_error']);
      expect(reply.body.data.map((issue: { field: string }) => issue.field)).toEqual([
        'decisions.0.tool_use_id',
        'decisions',
      ]);
    },
  ],
  [
    '4.5 respond-plan approve continues with the planned answer; reject completes with a short answer',
    async (t) => {
      const approved = await t.client().turns.run(
        newChatId(),
        { content: '[[mock:plan_approval]] [[mock:words n=6]]' },
        {
          onPlanApproval: (plan) => {
            expect(plan.plan.steps.length).toBe(2);
            return 'approve';
          },
        },
      );
      const rejected = await t
        .client()
        .turns.run(newChatId(), { content: '[[mock:plan_approval]]' }, { onPlanApproval: () => 'reject' });
      expect([approved.status, rejected.status]).toEqual(['completed', 'completed']);
      expect(approved.content.split(' ').filter(Boolean)).toHaveLength(6);
      expect(rejected.content.length).toBeGreaterThan(0);
    },
  ],
  [
    'reading: a rejected plan ends the turn with the answer "Plan rejected.", whatever else was asked',
    async (t) => {
      const rejected = await t
        .client()
        .turns.run(
          newChatId(),
          { content: '[[mock:plan_approval]] [[mock:words n=6]]' },
          { onPlanApproval: () => 'reject' },
        );
      expect([rejected.status, rejected.content]).toEqual(['completed', 'Plan rejected.']);
    },
  ],
  [
    '4.5 a plan interaction may appear in any mode: auto too',
    async (t) => {
      let asked = false;
      await t.client().turns.run(
        newChatId(),
        { content: '[[mock:plan_approval]]', permission_mode: 'auto' },
        {
          onPlanApproval: () => {
            asked = true;
            return true;
          },
        },
      );
      expect(asked).toBe(true);
    },
  ],
  [
    '4.5 respond-elicitation accept with content satisfying requested_schema; content that does not is refused',
    async (t) => {
      const chatId = newChatId();
      const { interaction, rest } = await until(
        t.client().turns.stream(chatId, { content: '[[mock:elicitation]]' }),
      );
      if (interaction.kind !== 'elicitation') throw new Error(interaction.kind);
      expect(interaction.payload).toMatchObject({ mode: 'form', requested_schema: { required: ['email'] } });
      const refused = await answer(t, chatId, 'respond-elicitation', {
        action_id: interaction.action_id,
        action: 'accept',
        content: { name: 'no email' },
      });
      expectRefused(refused.status);
      expect(await interaction.accept({ email: 'ada@example.com' })).toMatchObject({ state: 'resolved' });
      await drain(rest);
    },
  ],
  [
    'reading: elicitation content that fails requested_schema -> 422 api_v1_validation_error naming content.email',
    async (t) => {
      const reply = await answerThenCancel(t, '[[mock:elicitation]]', 'respond-elicitation', {
        action: 'accept',
        content: { email: 42 },
      });
      expect([reply.status, reply.body.message_code]).toEqual([422, 'api_v1_validation_error']);
      expect(reply.body.data).toEqual([{ field: 'content.email', message: expect.any(String) }]);
    },
  ],
  [
    '4.5 elicitation decline and cancel let the turn complete',
    async (t) => {
      for (const action of ['decline', 'cancel'] as const) {
        const turn = await t.client().turns.run(
          newChatId(),
          { content: '[[mock:elicitation]]' },
          {
            onElicitation: () => ({ action }),
          },
        );
        expect(turn.status).toBe('completed');
      }
    },
  ],
  [
    '4.5 auth_required (any mode) carries resolution connect_in_ui_or_cancel; cancel-auth lets the turn go on',
    async (t) => {
      const resolutions: Array<string | undefined> = [];
      const turn = await t.client().turns.run(
        newChatId(),
        { content: '[[mock:auth_required]]', permission_mode: 'auto' },
        {
          onAuthRequired: (pause) => {
            resolutions.push(pause.resolution);
          },
        },
      );
      expect(resolutions).toEqual(['connect_in_ui_or_cancel']);
      expect(turn.status).toBe('completed');
    },
  ],
  [
    '3.3 an interaction is resolved once: a second answer -> 409 api_v1_action_not_pending',
    async (t) => {
      const { plan, rest } = await pendingPlan(t);
      await plan.approve();
      const error = await apiError(plan.approve());
      expect([error.status, error.code]).toEqual([409, 'api_v1_action_not_pending']);
      await drain(rest);
    },
  ],
  [
    "5 action ids are valid only for their credential: another credential's answer -> 404",
    async (t) => {
      const chatId = newChatId();
      const { interaction, rest } = await until(
        t.client().turns.stream(chatId, { content: '[[mock:plan_approval]]' }),
      );
      const reply = await answer(
        t,
        chatId,
        'respond-plan',
        { action_id: interaction.action_id, action: 'approve' },
        'full-b',
      );
      expect(reply.status).toBe(404);
      if (interaction.kind === 'plan_approval') expect((await interaction.reject()).state).toBe('resolved');
      await drain(rest);
    },
  ],
  [
    '3.3 an unanswered interaction expires: a later answer -> 404 api_v1_action_not_found',
    async (t) => {
      const chatId = newChatId();
      const { interaction, rest } = await until(
        t.client().turns.stream(chatId, { content: '[[mock:plan_approval]]' }),
      );
      // Expired once its turn went on without the answer and ended, however late the expiry's timer ran.
      await turnEnded(t, chatId);
      const reply = await answer(t, chatId, 'respond-plan', {
        action_id: interaction.action_id,
        action: 'approve',
      });
      expect([reply.status, reply.body.message_code]).toEqual([404, 'api_v1_action_not_found']);
      await drain(rest);
    },
  ],
  [
    'reading: an expired interaction counts as refused: the turn goes on by itself (a plan: rejected)',
    async (t) => {
      const stream = t.client().turns.stream(newChatId(), { content: '[[mock:plan_approval]]' });
      const { rest } = await until(stream);
      await drain(rest);
      const turn = await stream.finalTurn();
      expect([turn.status, turn.content]).toEqual(['completed', 'Plan rejected.']);
    },
  ],
  [
    'turns.run answers several interactions of one turn, each through its handler',
    async (t) => {
      const kinds: string[] = [];
      const turn = await t.client().turns.run(
        newChatId(),
        { content: '[[mock:tool_approval]] [[mock:plan_approval]] [[mock:elicitation]] [[mock:words n=3]]' },
        {
          onToolApproval: (i) => {
            kinds.push(i.kind);
            return true;
          },
          onPlanApproval: (i) => {
            kinds.push(i.kind);
            return 'approve';
          },
          onElicitation: (i) => {
            kinds.push(i.kind);
            return { action: 'accept', content: { email: 'a@b.c' } };
          },
        },
      );
      expect(kinds).toEqual(['tool_approval', 'plan_approval', 'elicitation']);
      expect([turn.status, tools(turn)]).toEqual(['completed', ['search']]);
    },
  ],
  [
    'turns.run: a handler that throws cancels the turn, then the error is thrown',
    async (t) => {
      const chatId = newChatId();
      const boom = new Error('no decision');
      await expect(
        t.client().turns.run(
          chatId,
          { content: '[[mock:tool_approval]]' },
          {
            onToolApproval: () => {
              throw boom;
            },
          },
        ),
      ).rejects.toBe(boom);
      expect((await t.client().chats.messages(chatId)).items[0]?.status).toBe('cancelled');
    },
  ],
  [
    '4.6 cancel a running turn: cancelled true, the stream ends with message.cancelled and the partial content',
    async (t) => {
      const chatId = newChatId();
      const stream = t.client().turns.stream(chatId, { content: '[[mock:words n=50]] [[mock:slow ms=15]]' });
      let deltas = 0;
      for await (const event of stream) {
        if (event.type === 'delta' && ++deltas === 3)
          expect(await stream.cancel()).toEqual({ chat_id: chatId, cancelled: true });
      }
      const turn = await stream.finalTurn();
      expect(turn.status).toBe('cancelled');
      expect(turn.content).toBe(stream.text);
      expect(turn.content.split(' ').filter(Boolean).length).toBeLessThan(50);
      expect((await t.client().chats.messages(chatId)).items[0]?.status).toBe('cancelled');
    },
  ],
  [
    '4.6 cancelling ends a hanging turn; the key replays status cancelled',
    async (t) => {
      const chatId = newChatId();
      const body = { content: '[[mock:hang]]' };
      const stream = t.client().turns.stream(chatId, body, { idempotencyKey: 'hang-key' });
      const iterator = stream[Symbol.asyncIterator]();
      await iterator.next();
      await t.client().turns.cancel(chatId);
      await drain(iterator);
      expect((await stream.finalTurn()).status).toBe('cancelled');
      const replay = await t.client().turns.stream(chatId, body, { idempotencyKey: 'hang-key' }).finalTurn();
      expect(replay.status).toBe('cancelled');
    },
  ],
  [
    '4.6 cancel is idempotent: with no running turn it answers 200 with cancelled false',
    async (t) => {
      const chatId = newChatId();
      await t.client().turns.send(chatId, { content: 'done already' });
      expect(await t.client().turns.cancel(chatId)).toEqual({ chat_id: chatId, cancelled: false });
      expect(await t.client().turns.cancel(chatId)).toEqual({ chat_id: chatId, cancelled: false });
    },
  ],
  [
    '4.6 cancelling never creates a chat: an unknown chat -> 404, and it stays unknown',
    async (t) => {
      const chatId = newChatId();
      const error = await apiError(t.client().turns.cancel(chatId));
      expect([error.status, error.code]).toEqual([404, 'api_v1_not_found']);
      expect((await apiError(t.client().chats.get(chatId))).status).toBe(404);
    },
  ],
  [
    '4.6 cancel with the action_id of a pending interaction cancels its turn',
    async (t) => {
      const chatId = newChatId();
      const stream = t.client().turns.stream(chatId, { content: '[[mock:tool_approval]]' });
      const { interaction, rest } = await until(stream);
      expect((await t.client().turns.cancel(chatId, { action_id: interaction.action_id })).cancelled).toBe(
        true,
      );
      await drain(rest);
      expect((await stream.finalTurn()).status).toBe('cancelled');
    },
  ],
  [
    '7.5 503 api_v1_service_unavailable (retry_action retry): resent within the deadline, then resolved',
    async (t, context) => {
      const mock = needsInProcessMock(t, context);
      const { plan, rest } = await pendingPlan(t);
      mock.faults.add({
        route: 'answer',
        respond: { status: 503, code: 'api_v1_service_unavailable', errorDetails: { retry_action: 'retry' } },
      });
      expect((await plan.approve()).state).toBe('resolved');
      await drain(rest);
    },
  ],
  [
    '7.5 503 api_v1_action_result_unknown (check_status) is not resent: the error says to follow the stream',
    async (t, context) => {
      const mock = needsInProcessMock(t, context);
      const { plan, rest } = await pendingPlan(t);
      mock.faults.add({
        route: 'answer',
        times: 2,
        respond: {
          status: 503,
          code: 'api_v1_action_result_unknown',
          errorDetails: { retry_action: 'check_status' },
        },
      });
      const error = await apiError(plan.approve());
      expect(error.message).toMatch(/follow the stream or list the messages/);
      expect(mock.faults.list()).toHaveLength(1);
      mock.faults.clear();
      await t.client().turns.cancel(plan.chatId);
      await drain(rest);
    },
  ],
  [
    '7.5 409 api_v1_action_result_unknown surfaces its upstream_status',
    async (t, context) => {
      const mock = needsInProcessMock(t, context);
      const { plan, rest } = await pendingPlan(t);
      mock.faults.add({
        route: 'answer',
        respond: { status: 409, code: 'api_v1_action_result_unknown', data: { upstream_status: 422 } },
      });
      const error = await apiError(plan.approve());
      if (!error.is('api_v1_action_result_unknown')) throw error;
      expect(error.data?.upstream_status).toBe(422);
      await t.client().turns.cancel(plan.chatId);
      await drain(rest);
    },
  ],
  [
    '7.6 502 api_v1_core_unavailable on cancel is retried',
    async (t, context) => {
      const mock = needsInProcessMock(t, context);
      const chatId = newChatId();
      const stream = t.client().turns.stream(chatId, { content: '[[mock:hang]]' });
      const iterator = stream[Symbol.asyncIterator]();
      await iterator.next();
      mock.faults.add({ route: 'cancel', respond: { status: 502, code: 'api_v1_core_unavailable' } });
      expect((await t.client().turns.cancel(chatId)).cancelled).toBe(true);
      await drain(iterator);
    },
  ],
];

runOnTargets('interactions and cancellation', cases);
