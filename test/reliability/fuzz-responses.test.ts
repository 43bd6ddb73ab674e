import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ApiError,
  type Client,
  type ConvoError,
  ResponseValidationError,
  StreamInterruptedError,
  type TurnStreamEvent,
  UnreadableTerminalError,
} from '../../src/index.js';
import { fakeClient } from '../support/fake-client.js';
import { fakeFetch } from '../support/fake-fetch.js';
import { itFuzzes } from '../support/fuzz.js';
import {
  ACTION_RESULT,
  breakageArb,
  CANCEL_RESULT,
  CATALOG,
  CHAT,
  CHAT_DELETED,
  ENVELOPE,
  EXAMPLES,
  enumPlaces,
  MESSAGE,
  MESSAGE_EXAMPLE,
  type Shape,
  SKILL,
  SKILL_DELETED,
  setAt,
  TURN,
  withExtras,
} from '../support/response-shapes.js';
import { CHAT as CHAT_ID, sseText, type WireEvent } from '../support/sse.js';
import { action, step } from '../support/turn-wire.js';

/** A client whose every request gets `body` (text) with `status`. */
function clientAnswering(body: string, status = 200, contentType = 'application/json') {
  const { fetch } = fakeFetch(() => new Response(body, { status, headers: { 'content-type': contentType } }));
  return fakeClient(fetch, { maxRetries: 0, timeout: 2_000 });
}

interface Endpoint {
  name: string;
  shape: Shape;
  example: unknown;
  list?: boolean;
  /** The call, resolved to the data it returns (a page's items for lists). */
  call(client: Client): Promise<unknown>;
}

const ENDPOINTS: Endpoint[] = [
  { name: '4.1 skills.get', shape: SKILL, example: EXAMPLES.skill, call: (c) => c.skills.get(1) },
  {
    name: '4.1 skills.create',
    shape: SKILL,
    example: EXAMPLES.skill,
    call: (c) => c.skills.create({ name: 'a', instructions: 'b' }),
  },
  {
    name: '4.1 skills.update',
    shape: SKILL,
    example: EXAMPLES.skill,
    call: (c) => c.skills.update(1, { icon: 'x' }),
  },
  { name: '4.1 skills.toggle', shape: SKILL, example: EXAMPLES.skill, call: (c) => c.skills.toggle(1) },
  {
    name: '4.1 skills.delete',
    shape: SKILL_DELETED,
    example: EXAMPLES.skillDeleted,
    call: (c) => c.skills.delete(1),
  },
  {
    name: '4.1 skills.list',
    shape: SKILL,
    example: EXAMPLES.skill,
    list: true,
    call: async (c) => (await c.skills.list()).items,
  },
  { name: '4.2 chats.get', shape: CHAT, example: EXAMPLES.chat, call: (c) => c.chats.get(CHAT_ID) },
  { name: '4.2 chats.create', shape: CHAT, example: EXAMPLES.chat, call: (c) => c.chats.create({}) },
  { name: '4.2 chats.update', shape: CHAT, example: EXAMPLES.chat, call: (c) => c.chats.update(CHAT_ID, {}) },
  {
    name: '4.2 chats.delete',
    shape: CHAT_DELETED,
    example: EXAMPLES.chatDeleted,
    call: (c) => c.chats.delete(CHAT_ID),
  },
  {
    name: '4.2 chats.list',
    shape: CHAT,
    example: EXAMPLES.chat,
    list: true,
    call: async (c) => (await c.chats.list()).items,
  },
  {
    name: '4.2 chats.messages',
    shape: MESSAGE,
    example: MESSAGE_EXAMPLE,
    list: true,
    call: async (c) => (await c.chats.messages(CHAT_ID)).items,
  },
  { name: '2.5 chats.catalog', shape: CATALOG, example: EXAMPLES.catalog, call: (c) => c.chats.catalog() },
  {
    name: '4.3 turns.send',
    shape: TURN,
    example: EXAMPLES.turn,
    call: async (c) => {
      const { idempotencyKey: _, ...turn } = await c.turns.send(CHAT_ID, { content: 'x' });
      return turn;
    },
  },
  {
    name: '4.5 actions.respondPlan',
    shape: ACTION_RESULT,
    example: EXAMPLES.actionResult,
    call: (c) => c.actions.respondPlan(CHAT_ID, { action_id: 'act_1', action: 'approve' }),
  },
  {
    name: '4.6 turns.cancel',
    shape: CANCEL_RESULT,
    example: EXAMPLES.cancelResult,
    call: (c) => c.turns.cancel(CHAT_ID),
  },
];

function envelope(data: unknown, list: boolean) {
  return {
    status: 'success',
    message: 'OK',
    message_code: 'api_v1_ok',
    data: list ? [data] : data,
    meta: { request_id: 'req-1', ...(list ? { page: 1, size: 50, total: 1 } : {}) },
  };
}

describe('fuzz: response bodies that break the contract', () => {
  for (const endpoint of ENDPOINTS) {
    const body = envelope(endpoint.example, endpoint.list ?? false);
    const shape = ENVELOPE(endpoint.shape, endpoint.list);

    itFuzzes(
      `${endpoint.name}: a body that breaks 2.1/2.x at any place is a ResponseValidationError naming it`,
      `responses ${endpoint.name}`,
      2,
      fc.asyncProperty(breakageArb(shape, body), async ({ path, change }) => {
        const broken = setAt(body, path, change);
        const error = await endpoint.call(clientAnswering(JSON.stringify(broken))).then(
          (value) => ({ passedThrough: value }),
          (e: unknown) => e,
        );
        expect(error, `passed through at ${path.join('.')}`).toBeInstanceOf(ResponseValidationError);
        expect((error as ResponseValidationError).path).toBe(path.join('.'));
        expect((error as ResponseValidationError).status).toBe(200);
      }),
    );
  }

  itFuzzes(
    '2.1 a body that is not an envelope at all (not JSON, an array, a number, empty) is a ResponseValidationError',
    'responses garbage',
    2,
    fc.asyncProperty(
      fc.oneof(
        fc.string(),
        fc.jsonValue().map((value) => JSON.stringify(value)),
        fc.constantFrom('', '[]', 'null', '{', '<html>502 Bad Gateway</html>'),
      ),
      fc.constantFrom(...ENDPOINTS),
      async (text, endpoint) => {
        const outcome = await endpoint.call(clientAnswering(text)).then(
          (value) => ({ value }),
          (error: unknown) => ({ error }),
        );
        if ('value' in outcome) {
          // Only a body that happens to be a valid envelope may pass, and then typed right.
          expect(JSON.parse(text).status).toBe('success');
        } else expect(outcome.error).toBeInstanceOf(ResponseValidationError);
      },
    ),
  );

  itFuzzes(
    '9 unknown fields anywhere and absent optional ones pass through, typed as the spec says',
    'responses extras',
    2,
    fc.asyncProperty(
      fc.constantFrom(...ENDPOINTS),
      fc.dictionary(fc.constantFrom('x_new', 'extra', 'v2_field'), fc.jsonValue({ maxDepth: 1 }), {
        minKeys: 1,
      }),
      async (endpoint, extra) => {
        const data = withExtras(endpoint.example, extra);
        const body = { ...envelope(data, endpoint.list ?? false), ...extra };
        const value = await endpoint.call(clientAnswering(JSON.stringify(body)));
        expect(value).toEqual(JSON.parse(JSON.stringify(endpoint.list ? [data] : data)));
      },
    ),
  );
});

describe('fuzz: responses that grow (section 9)', () => {
  itFuzzes(
    '9 extra fields and values of an enum the contract does not list yet, anywhere at once, pass through as sent',
    'responses growth',
    2,
    fc.asyncProperty(
      fc.constantFrom(...ENDPOINTS.filter((endpoint) => enumPlaces(endpoint.shape, endpoint.example).length)),
      fc.dictionary(fc.constantFrom('x_new', 'v2_field'), fc.jsonValue({ maxDepth: 1 }), { minKeys: 1 }),
      fc.infiniteStream(fc.string({ maxLength: 12 })),
      async (endpoint, extra, values) => {
        // Every enum place gets a value of its own, known or not.
        let data = withExtras(endpoint.example, extra);
        for (const place of enumPlaces(endpoint.shape, endpoint.example)) {
          data = setAt(data, place.path, { set: values.next().value });
        }
        const body = envelope(data, endpoint.list ?? false);
        const value = await endpoint.call(clientAnswering(JSON.stringify(body)));
        expect(value).toEqual(JSON.parse(JSON.stringify(endpoint.list ? [data] : data)));
      },
    ),
  );

  it('9 one item with a new status does not fail its list page: the others come through with it', async () => {
    const items = [EXAMPLES.chat, { ...EXAMPLES.chat, permission_mode: 'plan' }, EXAMPLES.chat];
    const body = {
      ...envelope(EXAMPLES.chat, true),
      data: items,
      meta: { request_id: 'r', page: 1, size: 3, total: 3 },
    };
    const page = await clientAnswering(JSON.stringify(body)).chats.list();
    expect(page.items.map((chat) => chat.permission_mode)).toEqual(['manual', 'plan', 'manual']);
  });
});

describe('fuzz: error responses', () => {
  itFuzzes(
    '7 any error status with any body is an ApiError of that status, or a ResponseValidationError; nothing else',
    'error bodies',
    2,
    fc.asyncProperty(
      fc.integer({ min: 400, max: 599 }),
      fc
        .oneof(
          fc.record(
            {
              status: fc.constant('error'),
              message: fc.oneof(fc.string(), fc.integer()),
              message_code: fc.oneof(
                fc.constantFrom('api_v1_not_found', 'api_v1_chat_busy'),
                fc.string(),
                fc.integer(),
              ),
              data: fc.jsonValue({ maxDepth: 2 }),
              meta: fc.oneof(
                fc.record(
                  { request_id: fc.string(), error_details: fc.jsonValue({ maxDepth: 2 }) },
                  { requiredKeys: [] },
                ),
                fc.jsonValue({ maxDepth: 1 }),
              ),
            },
            { requiredKeys: [] },
          ),
          fc.jsonValue({ maxDepth: 2 }),
        )
        .map((value) => JSON.stringify(value)),
      async (status, text) => {
        const error = await clientAnswering(text, status)
          .skills.get(1)
          .catch((e: unknown) => e);
        if (error instanceof ApiError) {
          expect(error.status).toBe(status);
          expect(typeof error.code).toBe('string');
        } else expect(error).toBeInstanceOf(ResponseValidationError);
      },
    ),
  );
});

/** Events whose payload breaks section 6, one per event name. */
const BROKEN_EVENTS: WireEvent[] = [
  ['message.start', { chat_id: CHAT_ID, message_id: '7', request_id: 'r' }],
  ['message.start', { chat_id: 'not-a-uuid', message_id: 7, request_id: 'r' }],
  ['message.delta', { text: 1, replace: false }],
  ['message.delta', { text: 'x' }],
  ['message.delta', '"just a string"'],
  ['message.step', { steps: 'thinking' }],
  ['message.step', { steps: [{ ...step(1), timestamp: 'later' }] }],
  ['message.action_required', { ...action(1), action_id: 1 }],
  ['message.action_required', { payload: {} }],
  ['ping', { ts: 'now' }],
  ['message.completed', { id: 7, chat_id: CHAT_ID, role: 'assistant', content: 5 }],
  ['message.completed', { id: '7', chat_id: CHAT_ID, role: 'user', content: 'x' }],
  ['message.cancelled', null],
  ['message.error', { code: 'upstream_error', message: 'x', retryable: 'no' }],
  ['message.error', { message: 'x', retryable: false }],
];

describe('fuzz: stream events that break the contract', () => {
  itFuzzes(
    '6, 9 a broken event reaches the caller only as off_schema, never re-sends the turn; a broken terminal ends the stream once',
    'broken events',
    3,
    fc.asyncProperty(fc.constantFrom(...BROKEN_EVENTS), fc.nat({ max: 3 }), async (broken, position) => {
      const good: WireEvent[] = [
        ['message.start', { chat_id: CHAT_ID, message_id: 7, request_id: 'r' }],
        ['message.delta', { text: 'a', replace: false }],
        ['message.delta', { text: 'b', replace: false }],
      ];
      const events = [...good.slice(0, position), broken, ...good.slice(position)];
      const text = sseText(events);
      const { fetch, requests } = fakeFetch(
        () => new Response(text, { headers: { 'content-type': 'text/event-stream' } }),
      );
      const client = fakeClient(fetch, { retryDelay: { min: 0, max: 0 } });
      const stream = client.turns.stream(CHAT_ID, { content: 'x' }, { maxResumes: 1 });
      const seen: TurnStreamEvent[] = [];
      const error = await (async () => {
        for await (const event of stream) seen.push(event);
      })().catch((e: unknown) => e);
      const terminal = ['message.completed', 'message.cancelled', 'message.error'].includes(broken[0]);
      // A broken terminal event ends the stream at once; otherwise only the missing terminal event
      // (this wire has none) re-opens the stream.
      expect(error).toBeInstanceOf(terminal ? UnreadableTerminalError : StreamInterruptedError);
      expect((error as ConvoError).idempotencyKey).toBe(stream.idempotencyKey);
      expect(requests).toHaveLength(terminal ? 1 : 2);
      // What came through is typed as the contract says; the broken event only as off_schema.
      for (const event of seen) {
        if (event.type === 'start') expect(typeof event.message_id).toBe('number');
        if (event.type === 'delta')
          expect([typeof event.text, typeof event.replace]).toEqual(['string', 'boolean']);
        if (event.type === 'off_schema') expect(event.event).toBe(broken[0]);
        expect(['start', 'delta', 'resumed', 'off_schema']).toContain(event.type);
      }
      if (!terminal) expect(seen.filter((e) => e.type === 'off_schema')).toHaveLength(1);
    }),
  );
});
