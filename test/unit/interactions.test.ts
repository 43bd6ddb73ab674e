import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ApiError,
  Client,
  type Elicitation,
  type Interaction,
  InteractionExpiredError,
  jsonSchemaValidator,
  type Logger,
  type RelayedInteraction,
  RelayedTurnStream,
  ToolApproval,
  ValidationError,
} from '../../src/index.js';
import { fail, ok } from '../support/fake-fetch.js';
import { CHAT, finished, sseResponse, sseText, type WireEvent } from '../support/sse.js';

const TOOL = { tool_use_id: 'toolu_1', name: 'search', server: 'github', input: { q: 'x' } };
const PAYLOADS: Record<string, WireEvent> = {
  tool: [
    'message.action_required',
    { kind: 'tool_approval', action_id: 'act_1', payload: { tools: [TOOL] } },
  ],
  plan: [
    'message.action_required',
    {
      kind: 'plan_approval',
      action_id: 'act_2',
      payload: {
        plan: {
          title: 'Plan',
          context: 'c',
          steps: [{ step: 1, action: 'search', tool: 'search' }],
          notes: '',
        },
      },
    },
  ],
  elicitation: [
    'message.action_required',
    {
      kind: 'elicitation',
      action_id: 'act_3',
      payload: {
        message: 'Your email?',
        mode: 'form',
        requested_schema: { type: 'object', properties: { email: { type: 'string' } }, required: ['email'] },
      },
    },
  ],
  auth: [
    'message.action_required',
    { kind: 'auth_required', action_id: 'act_4', resolution: 'connect_in_ui_or_cancel' },
  ],
  future: ['message.action_required', { kind: 'captcha', action_id: 'act_5', payload: {} }],
};

/** A fake service: the stream endpoint plays `events`, answer endpoints reply from `answers`. */
function service(events: WireEvent[], answers: Array<Response | Error> = [], logger?: Logger) {
  const posts: Array<{ path: string; body: any }> = [];
  const fetch = async (input: Request | URL | string, init?: RequestInit) => {
    const request = new Request(input, init);
    const path = new URL(request.url).pathname;
    if (path.endsWith('/messages/stream')) return sseResponse(sseText(events));
    const body = JSON.parse((await request.text()) || '{}');
    posts.push({ path: path.replace(`/api/v1/chats/${CHAT}/actions/`, ''), body });
    const reply = answers.shift();
    if (reply instanceof Error) throw reply;
    if (reply) return reply;
    if (path.endsWith('/cancel')) return ok({ chat_id: CHAT, cancelled: true });
    return ok({ action_id: body.action_id, state: 'resolved' });
  };
  const client = new Client({
    baseUrl: 'https://api.test',
    token: 't',
    fetch,
    retryDelay: { min: 1, max: 5 },
    elicitationValidator: jsonSchemaValidator,
    ...(logger ? { logger } : {}),
  });
  return { client, posts };
}

const start: WireEvent = ['message.start', { chat_id: CHAT, message_id: 7, request_id: 'r' }];
const done: WireEvent = ['message.completed', finished('done')];

async function firstInteraction(client: Client): Promise<Interaction> {
  for await (const event of client.turns.stream(CHAT, { content: 'x' })) {
    if (event.type === 'action_required') return event.interaction;
  }
  throw new Error('no interaction');
}

afterEach(() => vi.useRealTimers());

describe('typed interactions', () => {
  it('2.6 an action_required event carries an interaction typed by kind, with its payload', async () => {
    const { client } = service([start, PAYLOADS.tool!, done]);
    const interaction = await firstInteraction(client);
    expect(interaction).toBeInstanceOf(ToolApproval);
    if (interaction.kind !== 'tool_approval') throw new Error('kind');
    expect(interaction.tools).toEqual([TOOL]);
    expect(interaction.action_id).toBe('act_1');
    expect(interaction.chatId).toBe(CHAT);
    expect(interaction.expiresAt - interaction.receivedAt).toBe(110_000);
  });

  it('4.5 tool_approval: approveAll posts one approved decision per tool to approve-tool', async () => {
    const { client, posts } = service([start, PAYLOADS.tool!, done]);
    const interaction = (await firstInteraction(client)) as ToolApproval;
    expect(await interaction.approveAll()).toEqual({ action_id: 'act_1', state: 'resolved' });
    expect(posts).toEqual([
      {
        path: 'approve-tool',
        body: { action_id: 'act_1', decisions: [{ tool_use_id: 'toolu_1', approved: true }] },
      },
    ]);
  });

  it('4.5 tool_approval: a decision is needed for every asked tool, and an unknown tool_use_id is refused', async () => {
    const { client, posts } = service([start, PAYLOADS.tool!, done]);
    const interaction = (await firstInteraction(client)) as ToolApproval;
    expect(() => interaction.decide({})).toThrow(ValidationError);
    expect(() => interaction.decide({ toolu_1: true, toolu_9: false })).toThrow(/toolu_9/);
    expect(posts).toHaveLength(0);
  });

  it('4.5 elicitation: accept checks content against requested_schema before sending, naming the field', async () => {
    const { client, posts } = service([start, PAYLOADS.elicitation!, done]);
    const interaction = (await firstInteraction(client)) as Elicitation;
    const error = await interaction.accept({ name: 'x' }).then(
      () => undefined,
      (e: unknown) => e as ValidationError,
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect(error?.field).toBe('content.email');
    await expect(interaction.accept({ email: { nested: true } } as never)).rejects.toThrow(/flat/);
    expect(await interaction.check({ email: 'a@b.c' })).toEqual([]);
    expect(posts).toEqual([]);
    await interaction.accept({ email: 'a@b.c' });
    expect(posts[0]).toEqual({
      path: 'respond-elicitation',
      body: { action_id: 'act_3', action: 'accept', content: { email: 'a@b.c' } },
    });
  });

  it('8 an interaction refuses locally after its 110 s deadline, sending nothing', async () => {
    const { client, posts } = service([start, PAYLOADS.plan!, done]);
    vi.useFakeTimers({ toFake: ['Date'] });
    const interaction = await firstInteraction(client);
    vi.setSystemTime(Date.now() + 110_001);
    if (interaction.kind !== 'plan_approval') throw new Error('kind');
    expect(() => interaction.approve()).toThrow(InteractionExpiredError);
    expect(posts).toHaveLength(0);
  });

  it('7.5 503 api_v1_service_unavailable (retry_action retry) is sent again, within the deadline', async () => {
    const outage = fail(503, 'api_v1_service_unavailable', null, {
      error_details: { retry_action: 'retry' },
    });
    const { client, posts } = service([start, PAYLOADS.auth!, done], [outage]);
    const interaction = await firstInteraction(client);
    if (interaction.kind !== 'auth_required') throw new Error('kind');
    expect(interaction.resolution).toBe('connect_in_ui_or_cancel');
    await interaction.cancel();
    expect(posts.map((p) => p.path)).toEqual(['cancel-auth', 'cancel-auth']);
  });

  it('7.5 503 api_v1_interaction_backend_unavailable is sent again', async () => {
    const { client, posts } = service(
      [start, PAYLOADS.plan!, done],
      [fail(503, 'api_v1_interaction_backend_unavailable')],
    );
    const interaction = await firstInteraction(client);
    if (interaction.kind !== 'plan_approval') throw new Error('kind');
    await interaction.reject();
    expect(posts).toHaveLength(2);
  });

  it.each([
    ['a lost connection', new TypeError('fetch failed')],
    ['a timeout', new DOMException('no response', 'TimeoutError')],
  ])('3.3 an answer with no response (%s) is sent again: the interaction resolves once', async (_, lost) => {
    const { client, posts } = service([start, PAYLOADS.plan!, done], [lost]);
    const interaction = await firstInteraction(client);
    if (interaction.kind !== 'plan_approval') throw new Error('kind');
    expect(await interaction.approve()).toMatchObject({ state: 'resolved' });
    expect(posts.map((p) => p.body)).toEqual([
      { action_id: 'act_2', action: 'approve' },
      { action_id: 'act_2', action: 'approve' },
    ]);
  });

  it.each([
    [404, 'api_v1_action_not_found', null, undefined],
    [409, 'api_v1_action_not_pending', null, undefined],
    [409, 'api_v1_action_result_unknown', { upstream_status: 422 }, undefined],
    [503, 'api_v1_action_result_unknown', null, 'check_status'],
  ])('7.5 %i %s is never sent again', async (status, code, data, retryAction) => {
    const reply = fail(
      status,
      code,
      data,
      retryAction ? { error_details: { retry_action: retryAction } } : {},
    );
    const { client, posts } = service([start, PAYLOADS.plan!, done], [reply]);
    const interaction = await firstInteraction(client);
    if (interaction.kind !== 'plan_approval') throw new Error('kind');
    const error = (await interaction.approve().catch((e: unknown) => e)) as ApiError;
    expect([error.status, error.code]).toEqual([status, code]);
    expect(posts).toHaveLength(1);
    if (code === 'api_v1_action_result_unknown')
      expect(error.message).toMatch(/follow the stream or list the messages/);
    if (status === 409 && error.is('api_v1_action_result_unknown'))
      expect(error.data?.upstream_status).toBe(422);
  });

  it('an interaction read from a relay is data, typed by kind, with no answer methods (answer it on the server)', async () => {
    const relayed = RelayedTurnStream.fromReadableStream(
      sseResponse(sseText([start, PAYLOADS.plan!, done])).body!,
    );
    const plans: RelayedInteraction[] = [];
    for await (const event of relayed) if (event.type === 'action_required') plans.push(event.interaction);
    const [plan] = plans;
    if (plan?.kind !== 'plan_approval') throw new Error('expected one plan interaction');
    expect(plan.chatId).toBe(CHAT);
    expect(plan.payload.plan).toBeDefined();
    expect(plan.expiresAt - plan.receivedAt).toBe(110_000);
    expect('approve' in plan).toBe(false);
  });
});

describe('turns.run', () => {
  it('answers each kind through its handler and resolves with the final turn', async () => {
    const events = [start, PAYLOADS.tool!, PAYLOADS.plan!, PAYLOADS.elicitation!, PAYLOADS.auth!, done];
    const { client, posts } = service(events);
    const seen: string[] = [];
    const turn = await client.turns.run(
      CHAT,
      { content: 'x' },
      {
        onToolApproval: (i) => {
          seen.push(i.kind);
          return { toolu_1: true };
        },
        onPlanApproval: async () => 'approve' as const,
        onElicitation: () => ({ action: 'accept', content: { email: 'a@b.c' } }),
        onAuthRequired: (i) => {
          seen.push(i.resolution ?? '');
        },
      },
    );
    expect(turn.content).toBe('done');
    expect(seen).toEqual(['tool_approval', 'connect_in_ui_or_cancel']);
    expect(posts.map((p) => [p.path, p.body.action ?? p.body.decisions?.[0]?.approved ?? null])).toEqual([
      ['approve-tool', true],
      ['respond-plan', 'approve'],
      ['respond-elicitation', 'accept'],
      ['cancel-auth', null],
    ]);
  });

  it('a kind without a handler gets the safe default: reject, reject, decline, cancel', async () => {
    const events = [start, PAYLOADS.tool!, PAYLOADS.plan!, PAYLOADS.elicitation!, PAYLOADS.auth!, done];
    const { client, posts } = service(events);
    await client.turns.run(CHAT, { content: 'x' });
    expect(posts.map((p) => [p.path, p.body.action ?? p.body.decisions?.[0]?.approved ?? null])).toEqual([
      ['approve-tool', false],
      ['respond-plan', 'reject'],
      ['respond-elicitation', 'decline'],
      ['cancel-auth', null],
    ]);
  });

  it('a handler that throws cancels the turn, reads it to its end, then throws', async () => {
    const events: WireEvent[] = [start, PAYLOADS.tool!, ['message.cancelled', finished('')]];
    const { client, posts } = service(events);
    const boom = new Error('handler failed');
    await expect(
      client.turns.run(
        CHAT,
        { content: 'x' },
        {
          onToolApproval: () => {
            throw boom;
          },
        },
      ),
    ).rejects.toBe(boom);
    expect(posts.map((p) => p.path)).toEqual(['cancel']);
  });

  it('an interaction of an unknown kind cancels the turn instead of hanging', async () => {
    const { client, posts } = service([start, PAYLOADS.future!, ['message.cancelled', finished('')]]);
    const turn = await client.turns.run(CHAT, { content: 'x' });
    expect(turn.status).toBe('cancelled');
    expect(posts.map((p) => p.path)).toEqual(['cancel']);
  });

  it.each([
    [
      'lost, then found no longer pending by the resend (outcome unknown)',
      [new TypeError('fetch failed'), fail(409, 'api_v1_action_not_pending')],
      [
        'the outcome of an answer is unknown: its send was lost',
        'an answer may have been applied; following the stream',
      ],
    ],
    [
      'resolved by another request',
      [fail(409, 'api_v1_action_not_pending')],
      ['an answer may have been applied; following the stream'],
    ],
  ])(
    '3.3 an answer %s does not cancel the turn: the loop follows the stream',
    async (_, replies, warning) => {
      const warnings: string[] = [];
      const logger = { warn: (message: string) => warnings.push(message) };
      const { client, posts } = service([start, PAYLOADS.tool!, done], [...replies], logger);
      const turn = await client.turns.run(CHAT, { content: 'x' }, { onToolApproval: () => true });
      expect(turn.status).toBe('completed');
      expect(posts.map((p) => p.path)).toEqual(replies.map(() => 'approve-tool'));
      expect(warnings).toEqual(warning);
    },
  );

  it('an answer of unknown outcome is not resent; the loop follows the stream', async () => {
    const unknown = fail(503, 'api_v1_action_result_unknown', null, {
      error_details: { retry_action: 'check_status' },
    });
    const { client, posts } = service([start, PAYLOADS.plan!, done], [unknown]);
    const turn = await client.turns.run(CHAT, { content: 'x' }, { onPlanApproval: () => true });
    expect(turn.status).toBe('completed');
    expect(posts.map((p) => p.path)).toEqual(['respond-plan']);
  });
});

describe('cancel', () => {
  it('4.6 turns.cancel posts to actions/cancel, with action_id when given', async () => {
    const { client, posts } = service([]);
    expect(await client.turns.cancel(CHAT)).toEqual({ chat_id: CHAT, cancelled: true });
    await client.turns.cancel(CHAT, { action_id: 'act_9' });
    expect(posts).toEqual([
      { path: 'cancel', body: {} },
      { path: 'cancel', body: { action_id: 'act_9' } },
    ]);
  });

  it('7.6 502 api_v1_core_unavailable is retried', async () => {
    const { client, posts } = service([], [fail(502, 'api_v1_core_unavailable')]);
    expect((await client.turns.cancel(CHAT)).cancelled).toBe(true);
    expect(posts).toHaveLength(2);
  });

  it('7.6 404 is not retried', async () => {
    const { client, posts } = service([], [fail(404, 'api_v1_not_found')]);
    await expect(client.turns.cancel(CHAT)).rejects.toBeInstanceOf(ApiError);
    expect(posts).toHaveLength(1);
  });
});
