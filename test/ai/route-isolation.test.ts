import { describe, expect, it } from 'vitest';
import {
  type ChatRouteOptions,
  createChatRoute,
  EVERY_CHAT_TO_EVERY_CALLER,
  RouteCapacityError,
} from '../../src/ai/index.js';
import { Client, ValidationError } from '../../src/index.js';
import { mockClient } from '../support/mock-client.js';
import { gatedClock, STEP_MS, sharedRecords, until } from './route-support.js';

const API = 'http://app.test/api/chat';
const HANG = '[[mock:hang]] wait';

async function setup() {
  const gate = gatedClock();
  const { mock, client } = mockClient({ clock: gate.clock });
  const { id } = await client.chats.create({});
  return { gate, mock, client, id };
}

const send = (id: string, text: string, user = 'alice') =>
  new Request(API, {
    method: 'POST',
    headers: { 'x-user': user },
    body: JSON.stringify({
      id,
      trigger: 'submit-message',
      messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text }] }],
    }),
  });
const resume = (id: string, user = 'alice') =>
  new Request(`${API}/${id}/stream`, { headers: { 'x-user': user } });
const stop = (id: string, user = 'alice') =>
  new Request(`${API}/${id}/stop`, { method: 'POST', headers: { 'x-user': user } });

const errorOf = async (response: Response) =>
  ((await response.json()) as { error: { name: string; field?: string; message: string } }).error;

describe('createChatRoute: each chat to its owner', () => {
  it('refuses to build without authorize: a ValidationError naming the option, thrown at creation', async () => {
    const { client } = await setup();
    const build = () => createChatRoute({ client } as unknown as ChatRouteOptions);
    expect(build).toThrow(ValidationError);
    expect(build).toThrow(/^authorize: is required/);
    const typo = () => createChatRoute({ client, authorize: 'every-chat' } as unknown as ChatRouteOptions);
    expect(typo).toThrow(expect.objectContaining({ field: 'authorize' }));
    expect(() => createChatRoute({ client, authorize: EVERY_CHAT_TO_EVERY_CALLER })).not.toThrow();
  });

  it("a caller authorize refuses gets 404 on another's chat: nothing of the turn, the turn goes on, nothing sent", async () => {
    const { client, id, mock, gate } = await setup();
    const route = createChatRoute({
      client,
      authorize: (request) => (request.headers.get('x-user') === 'alice' ? { caller: 'alice' } : false),
    });
    const mine = await route.handle(send(id, `[[mock:slow ms=${STEP_MS}]] [[mock:words n=5]] secret`));
    await until(() => mock.store.turns()[0]?.status === 'pending', 'the turn started');
    const answers = await Promise.all([
      route.handle(resume(id, 'mallory')),
      route.handle(stop(id, 'mallory')),
      route.handle(send(id, 'mine now', 'mallory')),
    ]);
    for (const answer of answers) {
      expect(answer.status).toBe(404);
      expect(await answer.text()).toBe('{"error":{"name":"NotFound","message":"no such chat"}}');
    }
    gate.release(100);
    const text = await mine.text();
    expect(text).toContain('"status":"completed"');
    expect(mock.store.turns().map((turn) => turn.status)).toEqual(['completed']);
  });

  it("one caller's live answers are bounded (429 RouteCapacityError, nothing sent); another caller is served", async () => {
    const { client, mock } = await setup();
    const records = sharedRecords();
    const route = createChatRoute({
      client,
      records,
      maxCallerStreams: 1,
      authorize: (request) => ({ caller: request.headers.get('x-user') ?? '' }),
    });
    const [one, two, three] = await Promise.all([1, 2, 3].map(() => client.chats.create({})));
    const first = await route.handle(send(one?.id as string, HANG));
    expect(first.status).toBe(200);
    const second = await route.handle(send(two?.id as string, HANG));
    expect(second.status).toBe(429);
    expect(await errorOf(second)).toMatchObject({ name: 'RouteCapacityError' });
    // Refused before the send: no turn recorded for the chat, which a resume would read by its key.
    expect(await records.get(two?.id as string)).toBeUndefined();
    const other = await route.handle(send(three?.id as string, 'hello', 'bob'));
    expect(other.status).toBe(200);
    await other.text();
    expect(mock.store.turns()).toHaveLength(2);
    await first.body?.cancel();
  });

  it('a grant of true bounds the share per chat', async () => {
    const { client } = await setup();
    const route = createChatRoute({ client, maxCallerStreams: 1, authorize: () => true });
    const [one, two] = await Promise.all([1, 2].map(() => client.chats.create({})));
    const first = await route.handle(send(one?.id as string, HANG));
    const second = await route.handle(send(two?.id as string, HANG));
    expect([first.status, second.status]).toEqual([200, 200]);
    await first.body?.cancel();
    await second.body?.cancel();
  });

  it('a chat id that is not a UUID answers 400 ValidationError naming chatId on send, resume and stop', async () => {
    const { client, mock } = await setup();
    let asked = 0;
    const route = createChatRoute({
      client,
      authorize: () => {
        asked++;
        return true;
      },
    });
    const answers = await Promise.all([
      route.handle(send('not-a-chat', 'hello')),
      route.handle(resume('not-a-chat')),
      route.handle(stop('not-a-chat')),
      route.handle(new Request(API, { method: 'POST', body: JSON.stringify({ trigger: 'submit-message' }) })),
    ]);
    for (const answer of answers) {
      expect(answer.status).toBe(400);
      expect(await errorOf(answer)).toMatchObject({ name: 'ValidationError', field: 'chatId' });
    }
    expect(asked).toBe(0);
    expect(mock.store.turns()).toHaveLength(0);
  });

  it('a body that does not arrive within maxBodyMs answers 400 naming body; nothing is sent', async () => {
    const { client, mock } = await setup();
    const route = createChatRoute({ client, authorize: EVERY_CHAT_TO_EVERY_CALLER, maxBodyMs: 20 });
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      cancel() {
        cancelled = true;
      },
    });
    const request = new Request(API, { method: 'POST', body, duplex: 'half' } as RequestInit);
    const answer = await route.handle(request);
    expect(answer.status).toBe(400);
    expect(await errorOf(answer)).toMatchObject({
      field: 'body',
      message: 'body: was not received within 20 ms',
    });
    expect(cancelled).toBe(true);
    expect(mock.store.turns()).toHaveLength(0);
  });

  it('any service status maps to an error answer: 600 from the service answers 502, a 503 stays 503', async () => {
    const { mock, id } = await setup();
    const statusOf = (status: number) =>
      new Client({
        baseUrl: mock.url,
        token: 'mock-token',
        maxRetries: 0,
        fetch: async () => {
          const response = Response.json(
            { status: 'error', message: 'odd', message_code: 'odd', meta: { request_id: 'r' } },
            { status: 500 },
          );
          Object.defineProperty(response, 'status', { value: status });
          return response;
        },
      });
    for (const [status, answered] of [
      [600, 502],
      [503, 503],
      [302, 502],
    ]) {
      // A stop with no record asks the service for the chat's turn: the call that fails.
      const route = createChatRoute({ client: statusOf(status as number), authorize: () => true });
      const answer = await route.handle(stop(id));
      expect(answer.status).toBe(answered);
      expect((await errorOf(answer)).name).toMatch(/Error$/);
    }
  });

  it('a stop with no record left cancels the chat-wide turn only for a chat authorize granted', async () => {
    const { client, mock, id } = await setup();
    // A turn the route has no record of (a restart without Redis lost it).
    const elsewhere = client.turns.stream(id, { content: HANG });
    const reading = elsewhere.done().catch(() => {});
    await until(() => mock.store.turns()[0]?.status === 'pending', 'the turn started');
    const open = createChatRoute({ client, authorize: EVERY_CHAT_TO_EVERY_CALLER });
    expect(await (await open.handle(stop(id))).json()).toEqual({ cancelled: false });
    expect(mock.store.turns()[0]?.status).toBe('pending');
    const guarded = createChatRoute({ client, authorize: () => ({ caller: 'alice' }) });
    expect(await (await guarded.handle(stop(id))).json()).toEqual({ cancelled: true });
    await reading;
    expect(mock.store.turns()[0]?.status).toBe('cancelled');
  });

  it('RouteCapacityError and RedisUnavailableError are the SDK errors the client entry exports', async () => {
    const sdk = await import('../../src/index.js');
    expect(sdk.RouteCapacityError).toBe(RouteCapacityError);
    expect(new sdk.RedisUnavailableError()).toBeInstanceOf(sdk.ConvoError);
    expect(new RouteCapacityError(3, 'caller').message).toContain('maxCallerStreams');
    expect(new RouteCapacityError(3).message).toContain('maxStreams');
  });
});
