import { describe, expect, it } from 'vitest';
import { Client, ConvoError, type Interaction } from '../../src/index.js';
import { ok, skill } from '../support/fake-fetch.js';
import { CHAT, sseResponse, sseText, type WireEvent } from '../support/sse.js';

/**
 * Every error any public method throws or rejects with is a ConvoError: each method is driven against
 * hostile fakes (garbage, cut bodies, wrong types, a fetch that throws or returns no Response).
 */

type Hostile = () => Response | Promise<Response>;

/** A body that sends `text` and then fails mid-read. */
function cut(text: string, type = 'application/json'): Response {
  const bytes = new TextEncoder().encode(text);
  let sent = false;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent) return controller.error(new TypeError('terminated'));
      sent = true;
      controller.enqueue(bytes.slice(0, bytes.length >> 1));
    },
  });
  return new Response(body, { headers: { 'content-type': type } });
}

const HOSTILE: Record<string, Hostile> = {
  'HTML instead of JSON': () =>
    new Response('<html>oops</html>', { headers: { 'content-type': 'text/html' } }),
  'a cut JSON body': () =>
    cut(JSON.stringify({ status: 'success', data: skill(), meta: { request_id: 'r' } })),
  'wrong types in data': () => ok({ id: 'one', name: 7, items: 'x', chat_id: 3, state: [] }),
  'an envelope of the wrong shape': () => Response.json([1, 2, 3]),
  'a 500 of garbage': () => new Response('\u0000\uffff', { status: 500 }),
  'a 200 with an error envelope': () => Response.json({ status: 'error', message_code: 42 }),
  'a fetch that throws a TypeError': () => {
    throw new TypeError('fetch failed', { cause: new Error('ECONNRESET') });
  },
  'a fetch that throws a string': () => {
    throw 'boom';
  },
  'a fetch that returns no Response': () => ({}) as Response,
  'a stream that is not SSE': () =>
    new Response('data: {', { headers: { 'content-type': 'text/event-stream' } }),
  'a stream cut mid-event': () =>
    cut(sseText([['message.start', { chat_id: CHAT, message_id: 1 }]]), 'text/event-stream'),
};

const start: WireEvent = ['message.start', { chat_id: CHAT, message_id: 7, request_id: 'r' }];
const KINDS: WireEvent[] = [
  [
    'message.action_required',
    {
      kind: 'tool_approval',
      action_id: 'a1',
      payload: { tools: [{ tool_use_id: 't', name: 'n', server: 's', input: {} }] },
    },
  ],
  [
    'message.action_required',
    {
      kind: 'plan_approval',
      action_id: 'a2',
      payload: { plan: { title: 't', context: 'c', steps: [], notes: '' } },
    },
  ],
  [
    'message.action_required',
    {
      kind: 'elicitation',
      action_id: 'a3',
      payload: {
        message: 'm',
        mode: 'form',
        requested_schema: { type: 'object', properties: { a: { type: 'string' } } },
      },
    },
  ],
  [
    'message.action_required',
    { kind: 'auth_required', action_id: 'a4', resolution: 'connect_in_ui_or_cancel' },
  ],
];

/** A client whose every exchange gets `reply`, except the stream of an interaction when `interaction` is set. */
function client(reply: Hostile, interaction?: WireEvent): Client {
  const fetch = async (input: Request | URL | string, init?: RequestInit) => {
    const url = input instanceof Request ? input.url : String(input);
    if (interaction && url.endsWith('/messages/stream')) return sseResponse(sseText([start, interaction]));
    void init;
    return reply();
  };
  return new Client({ baseUrl: 'https://api.test', token: 't', fetch, maxRetries: 0, timeout: 2_000 });
}

const ID = 1;
const CALLS: Record<string, (c: Client) => Promise<unknown>> = {
  'skills.list': (c) => c.skills.list(),
  'skills.list iterated': async (c) => {
    for await (const _ of c.skills.list());
  },
  'skills.create': (c) => c.skills.create({ name: 'n', instructions: 'i' }),
  'skills.get': (c) => c.skills.get(ID),
  'skills.update': (c) => c.skills.update(ID, { name: 'n' }),
  'skills.toggle': (c) => c.skills.toggle(ID),
  'skills.delete': (c) => c.skills.delete(ID),
  'chats.list': (c) => c.chats.list(),
  'chats.create': (c) => c.chats.create({ name: 'n' }),
  'chats.get': (c) => c.chats.get(CHAT),
  'chats.update': (c) => c.chats.update(CHAT, { name: 'n' }),
  'chats.delete': (c) => c.chats.delete(CHAT),
  'chats.messages': (c) => c.chats.messages(CHAT),
  'chats.catalog': (c) => c.chats.catalog(),
  'turns.send': (c) => c.turns.send(CHAT, { content: 'x' }),
  'turns.stream iterated': async (c) => {
    for await (const _ of c.turns.stream(CHAT, { content: 'x' }, { maxResumes: 1 }));
  },
  'turns.stream finalText': (c) => c.turns.stream(CHAT, { content: 'x' }, { maxResumes: 0 }).finalText(),
  'turns.run': (c) => c.turns.run(CHAT, { content: 'x' }, { maxResumes: 0 }),
  'turns.cancel': (c) => c.turns.cancel(CHAT),
  'actions.approveTool': (c) => c.actions.approveTool(CHAT, { action_id: 'a', decisions: [] } as never),
  'actions.respondPlan': (c) => c.actions.respondPlan(CHAT, { action_id: 'a', decision: 'approve' } as never),
  'actions.respondElicitation': (c) =>
    c.actions.respondElicitation(CHAT, { action_id: 'a', action: 'decline' } as never),
  'actions.cancelAuth': (c) => c.actions.cancelAuth(CHAT, { action_id: 'a' } as never),
};

/** The interaction's answer methods, each against a hostile answer endpoint. */
const ANSWERS: Record<string, [WireEvent, (i: Interaction) => Promise<unknown>]> = {
  'ToolApproval.approveAll': [
    KINDS[0]!,
    (i) => (i as Extract<Interaction, { kind: 'tool_approval' }>).approveAll(),
  ],
  'PlanApproval.approve': [
    KINDS[1]!,
    (i) => (i as Extract<Interaction, { kind: 'plan_approval' }>).approve(),
  ],
  'Elicitation.accept': [
    KINDS[2]!,
    (i) => (i as Extract<Interaction, { kind: 'elicitation' }>).accept({ a: 'x' }),
  ],
  'Elicitation.decline': [KINDS[2]!, (i) => (i as Extract<Interaction, { kind: 'elicitation' }>).decline()],
  'AuthRequired.cancel': [KINDS[3]!, (i) => (i as Extract<Interaction, { kind: 'auth_required' }>).cancel()],
};

async function firstInteraction(c: Client): Promise<Interaction> {
  for await (const event of c.turns.stream(CHAT, { content: 'x' }, { maxResumes: 0 })) {
    if (event.type === 'action_required') return event.interaction;
  }
  throw new Error('no interaction');
}

async function settle(work: () => Promise<unknown>): Promise<unknown> {
  try {
    await work();
    return undefined;
  } catch (error) {
    return error;
  }
}

describe('7 every error of every public method is a ConvoError', () => {
  for (const [hostile, reply] of Object.entries(HOSTILE)) {
    it(`7 against ${hostile}`, async () => {
      const escaped: string[] = [];
      for (const [name, call] of Object.entries(CALLS)) {
        const error = await settle(() => call(client(reply)));
        if (error !== undefined && !(error instanceof ConvoError)) escaped.push(`${name}: ${String(error)}`);
      }
      for (const [name, [event, answer]] of Object.entries(ANSWERS)) {
        const interaction = await firstInteraction(client(reply, event));
        const error = await settle(() => answer(interaction));
        if (error !== undefined && !(error instanceof ConvoError)) escaped.push(`${name}: ${String(error)}`);
      }
      expect(escaped).toEqual([]);
    });
  }
});
