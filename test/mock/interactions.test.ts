import { beforeEach, describe, expect, it } from 'vitest';
import {
  ActionResultSchema,
  ElicitationPayloadSchema,
  PlanApprovalPayloadSchema,
  ToolApprovalPayloadSchema,
} from '../../src/contract/interactions.js';
import {
  type ConvoMock,
  createManualClock,
  createMock,
  type FakeModel,
  type InteractionAnswer,
} from '../../src/mock/index.js';
import { act, CHAT_TOKENS, errorDataOf, outcome } from './helpers.js';
import { type EventReader, folded, names, stream } from './sse.js';

const ACTION_ID = /^act_[0-9a-f]{32}$/;

let mock: ConvoMock;
let chatId: string;
beforeEach(() => {
  mock = createMock({ tokens: CHAT_TOKENS });
  chatId = crypto.randomUUID();
});

/** Streams `content` until its action_required; returns the reader and that event's payload. */
async function ask(content: string, extra: Record<string, unknown> = {}, token = 'mock-token') {
  const reader = await stream(mock, chatId, { content, ...extra }, { token });
  const events = await reader.until('message.action_required');
  const required = events.at(-1)?.data as {
    kind: string;
    action_id: string;
    payload: unknown;
    resolution?: string;
  };
  return { reader, required, events };
}

async function finish(reader: EventReader) {
  const events = await reader.rest();
  return { events, last: events.at(-1) };
}

describe('2.6 and 4.5 tool_approval', () => {
  it('2.6 manual: message.action_required kind tool_approval with one tool and an opaque action_id', async () => {
    const { reader, required } = await ask('find docs [[mock:tool_approval]]');
    expect(required.kind).toBe('tool_approval');
    expect(required.action_id).toMatch(ACTION_ID);
    expect(ToolApprovalPayloadSchema.parse(required.payload)).toEqual({
      tools: [{ tool_use_id: 'toolu_1', name: 'search', server: 'github', input: { q: 'find docs' } }],
    });
    expect(required).not.toHaveProperty('resolution');
    expect(mock.store.pendingInteractions().map((i) => i.action_id)).toEqual([required.action_id]);
    await act(mock, chatId, 'approve-tool', {
      action_id: required.action_id,
      decisions: [{ tool_use_id: 'toolu_1', approved: false }],
    });
    await reader.rest();
  });

  it('4.5 approved -> 200 { action_id, state: resolved }; a step with the tool in tool_calls; text continues', async () => {
    const { reader, required } = await ask('q [[mock:tool_approval]]');
    const reply = await act(mock, chatId, 'approve-tool', {
      action_id: required.action_id,
      decisions: [{ tool_use_id: 'toolu_1', approved: true }],
    });
    expect(reply.status).toBe(200);
    expect(ActionResultSchema.parse(reply.body.data)).toEqual({
      action_id: required.action_id,
      state: 'resolved',
    });
    const { events, last } = await finish(reader);
    expect(names(events)).toEqual([
      'message.step',
      'message.delta',
      'message.delta',
      'message.delta',
      'message.completed',
    ]);
    expect(events[0]?.data).toMatchObject({
      steps: [{ key: 'tool', tool_calls: [{ tool_use_id: 'toolu_1' }] }],
    });
    expect(last?.data.content).toBe('Mock answer: q');
    expect(mock.store.interactions()[0]).toMatchObject({ state: 'resolved' });
  });

  it('4.5 rejected -> the tool is skipped, text continues', async () => {
    const { reader, required } = await ask('q [[mock:tool_approval]]');
    await act(mock, chatId, 'approve-tool', {
      action_id: required.action_id,
      decisions: [{ tool_use_id: 'toolu_1', approved: false }],
    });
    const { events, last } = await finish(reader);
    expect(names(events)).not.toContain('message.step');
    expect(last?.data.steps).toHaveLength(1);
    expect(folded(events)).toBe('Mock answer: q');
  });

  it('4.5 a decision for every asked tool: a missing, unknown or repeated tool_use_id -> 422 naming it', async () => {
    const { reader, required } = await ask('[[mock:tool_approval]]');
    const cases = [
      [
        [{ tool_use_id: 'toolu_9', approved: true }],
        [
          { field: 'decisions.0.tool_use_id', message: '"toolu_9" is not a tool this interaction asked for' },
          { field: 'decisions', message: 'has no decision for tool "toolu_1"' },
        ],
      ],
      [
        [
          { tool_use_id: 'toolu_1', approved: true },
          { tool_use_id: 'toolu_1', approved: false },
        ],
        [{ field: 'decisions.1.tool_use_id', message: '"toolu_1" has more than one decision' }],
      ],
      [[], [{ field: 'decisions', message: 'must have at least 1 item', limit: 1 }]],
    ] as const;
    for (const [decisions, issues] of cases) {
      const reply = await act(mock, chatId, 'approve-tool', { action_id: required.action_id, decisions });
      expect(outcome(reply)).toEqual([422, 'api_v1_validation_error']);
      expect(errorDataOf(reply)).toEqual(issues);
    }
    // Still pending after the 422s.
    expect(mock.store.pendingInteractions()).toHaveLength(1);
    await act(mock, chatId, 'approve-tool', {
      action_id: required.action_id,
      decisions: [{ tool_use_id: 'toolu_1', approved: true }],
    });
    await reader.rest();
  });
});

describe('3.3 and 7.5 who may answer, and when', () => {
  it('3.3 an interaction is resolved once: a second answer -> 409 api_v1_action_not_pending', async () => {
    const { reader, required } = await ask('[[mock:plan_approval]]');
    expect(
      (await act(mock, chatId, 'respond-plan', { action_id: required.action_id, action: 'approve' })).status,
    ).toBe(200);
    const again = await act(mock, chatId, 'respond-plan', {
      action_id: required.action_id,
      action: 'approve',
    });
    expect(outcome(again)).toEqual([409, 'api_v1_action_not_pending']);
    await reader.rest();
  });

  it('5 an action_id is valid only for its credential, chat and kind; else 404 api_v1_action_not_found', async () => {
    const { reader, required } = await ask('[[mock:plan_approval]]');
    const body = { action_id: required.action_id, action: 'approve' };
    const cases = [
      await act(mock, chatId, 'respond-plan', body, 'same-user'),
      await act(mock, crypto.randomUUID(), 'respond-plan', body),
      await act(mock, 'not-a-uuid', 'respond-plan', body),
      await act(mock, chatId, 'cancel-auth', { action_id: required.action_id }),
      await act(mock, chatId, 'respond-plan', { ...body, action_id: 'act_00000000000000000000000000000000' }),
    ];
    for (const reply of cases) expect(outcome(reply)).toEqual([404, 'api_v1_action_not_found']);
    expect(mock.store.pendingInteractions()).toHaveLength(1);
    await act(mock, chatId, 'respond-plan', body);
    await reader.rest();
  });

  it('4.5 the answer endpoints need chat:write and a valid body', async () => {
    const denied = await act(mock, chatId, 'respond-plan', { action_id: 'a', action: 'approve' }, 'reader');
    expect([...outcome(denied), denied.body.data]).toEqual([
      403,
      'api_token_scope_not_allowed',
      { required_scopes: ['chat:write'] },
    ]);
    const invalid = await act(mock, chatId, 'respond-plan', { action: 'maybe' });
    expect(outcome(invalid)).toEqual([422, 'api_v1_validation_error']);
    expect(errorDataOf(invalid)).toEqual(
      expect.arrayContaining([{ field: 'action_id', message: 'is required' }]),
    );
  });

  it('3.3 an unanswered interaction expires after its lifetime: 404 afterwards; the turn goes on as if refused', async () => {
    const clock = createManualClock();
    mock = createMock({ clock, interactionTtlMs: 1000, pingMs: 60_000 });
    const { reader, required } = await ask('q [[mock:tool_approval]]');
    await clock.advance(999);
    expect(mock.store.pendingInteractions()).toHaveLength(1);
    await clock.advance(1);
    const late = await act(mock, chatId, 'approve-tool', {
      action_id: required.action_id,
      decisions: [{ tool_use_id: 'toolu_1', approved: true }],
    });
    expect(outcome(late)).toEqual([404, 'api_v1_action_not_found']);
    const { events, last } = await finish(reader);
    expect(names(events)).not.toContain('message.step');
    expect(last?.event).toBe('message.completed');
    expect(mock.store.interactions()[0]).toMatchObject({
      state: 'expired',
      answer: {
        kind: 'tool_approval',
        decisions: [{ tool_use_id: 'toolu_1', approved: false }],
        by: 'expiry',
      },
    });
  });
});

describe('2.6 and 4.5 plan_approval', () => {
  it('2.6 plan payload: { plan: { title, context, steps, notes } }, a tool only on a step using one', async () => {
    const { reader, required } = await ask('ship it [[mock:plan_approval]]');
    expect(PlanApprovalPayloadSchema.parse(required.payload)).toEqual({
      plan: {
        title: 'Mock plan',
        context: 'ship it',
        steps: [
          { step: 1, action: 'Search the handbook', tool: 'search' },
          { step: 2, action: 'Write the answer' },
        ],
        notes: 'A plan of the mock model.',
      },
    });
    await act(mock, chatId, 'respond-plan', { action_id: required.action_id, action: 'approve' });
    expect((await finish(reader)).last?.data.content).toBe('Mock answer: ship it');
  });

  it('4.5 a plan may appear in any mode: auto too; reject -> the turn completes with a short answer', async () => {
    const { reader, required } = await ask('x [[mock:plan_approval]] [[mock:words n=9]]', {
      permission_mode: 'auto',
    });
    await act(mock, chatId, 'respond-plan', { action_id: required.action_id, action: 'reject' });
    const { last } = await finish(reader);
    expect([last?.event, last?.data.content]).toEqual(['message.completed', 'Plan rejected.']);
  });
});

describe('2.6 and 4.5 elicitation', () => {
  it('2.6 elicitation payload: { message, mode: form, requested_schema }', async () => {
    const { reader, required } = await ask('[[mock:elicitation]]');
    expect(ElicitationPayloadSchema.parse(required.payload)).toEqual({
      message: 'Which email address should I use?',
      mode: 'form',
      requested_schema: { type: 'object', properties: { email: { type: 'string' } }, required: ['email'] },
    });
    await act(mock, chatId, 'respond-elicitation', { action_id: required.action_id, action: 'cancel' });
    await reader.rest();
  });

  it('4.5 accept needs content satisfying requested_schema: else 422 naming the field; valid content resolves', async () => {
    const { reader, required } = await ask('[[mock:elicitation]]');
    const id = required.action_id;
    const cases = [
      [{ action: 'accept' }, [{ field: 'content', message: 'is required with action "accept"' }]],
      [{ action: 'accept', content: {} }, [{ field: 'content.email', message: 'is required' }]],
      [
        { action: 'accept', content: { email: 5 } },
        [{ field: 'content.email', message: 'must be of type string' }],
      ],
      [{ action: 'accept', content: { email: { nested: 1 } } }, expect.any(Array)],
    ] as const;
    for (const [body, issues] of cases) {
      const reply = await act(mock, chatId, 'respond-elicitation', { action_id: id, ...body });
      expect(outcome(reply), JSON.stringify(body)).toEqual([422, 'api_v1_validation_error']);
      expect(errorDataOf(reply)).toEqual(issues);
    }
    const ok = await act(mock, chatId, 'respond-elicitation', {
      action_id: id,
      action: 'accept',
      content: { email: 'a@b.c' },
    });
    expect(ok.status).toBe(200);
    expect((await finish(reader)).last?.event).toBe('message.completed');
    expect(mock.store.interactions()[0]?.answer).toEqual({
      kind: 'elicitation',
      action: 'accept',
      content: { email: 'a@b.c' },
      by: 'client',
    });
  });

  for (const action of ['decline', 'cancel'] as const) {
    it(`4.5 ${action} continues without content`, async () => {
      const { reader, required } = await ask('e [[mock:elicitation]]');
      expect(
        (await act(mock, chatId, 'respond-elicitation', { action_id: required.action_id, action })).status,
      ).toBe(200);
      expect((await finish(reader)).last?.data.content).toBe('Mock answer: e');
    });
  }
});

describe('2.6 and 4.5 auth_required', () => {
  for (const mode of ['manual', 'auto'] as const) {
    it(`6 auth_required appears in ${mode} mode with resolution connect_in_ui_or_cancel; cancel-auth continues`, async () => {
      const { reader, required } = await ask('a [[mock:auth_required]]', { permission_mode: mode });
      expect(required).toMatchObject({
        kind: 'auth_required',
        resolution: 'connect_in_ui_or_cancel',
        payload: { connector_id: 2, server: 'drive', display_name: 'Drive' },
      });
      const reply = await act(mock, chatId, 'cancel-auth', { action_id: required.action_id });
      expect(reply.body.data).toEqual({ action_id: required.action_id, state: 'resolved' });
      expect((await finish(reader)).last?.data.content).toBe('Mock answer: a');
    });
  }
});

describe('the model hook receives answers as the value of yield', () => {
  it('an elicitation answer reaches the model; deltas continue after it', async () => {
    const answers: Array<InteractionAnswer | undefined> = [];
    const model: FakeModel = async function* () {
      yield { type: 'text', text: 'Asking. ' };
      const answer = yield {
        type: 'interaction',
        kind: 'elicitation',
        payload: {
          message: 'Age?',
          mode: 'form',
          requested_schema: { type: 'object', properties: { age: { type: 'integer', minimum: 0 } } },
        },
      };
      answers.push(answer);
      yield {
        type: 'text',
        text: answer?.kind === 'elicitation' ? `Got ${JSON.stringify(answer.content)}.` : '',
      };
    };
    mock.setModel(model);
    const { reader, required } = await ask('x');
    const bad = await act(mock, chatId, 'respond-elicitation', {
      action_id: required.action_id,
      action: 'accept',
      content: { age: -1 },
    });
    expect(errorDataOf(bad)).toEqual([{ field: 'content.age', message: expect.stringContaining('0') }]);
    await act(mock, chatId, 'respond-elicitation', {
      action_id: required.action_id,
      action: 'accept',
      content: { age: 3 },
    });
    const { events, last } = await finish(reader);
    expect(names(events)).toEqual(['message.delta', 'message.completed']);
    expect(last?.data.content).toBe('Asking. Got {"age":3}.');
    expect(answers).toEqual([{ kind: 'elicitation', action: 'accept', content: { age: 3 }, by: 'client' }]);
  });
});
