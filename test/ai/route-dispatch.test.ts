import { describe, expect, it, vi } from 'vitest';
import { type ChatGrant, createChatRoute, EVERY_CHAT_TO_EVERY_CALLER } from '../../src/ai/index.js';
import {
  ApiError,
  ConvoError,
  RedisUnavailableError,
  RouteCapacityError,
  ValidationError,
} from '../../src/index.js';
import { mockClient } from '../support/mock-client.js';
import { gatedClock, sendRequest, until } from './route-support.js';

const API = 'http://app.test/api/chat';
const NOT_UUID = 'not-a-chat';

async function setup() {
  const gate = gatedClock();
  const { mock, client } = mockClient({ clock: gate.clock });
  const { id } = await client.chats.create({});
  return { gate, mock, client, id };
}

const send = (id: string, text = 'hello') => sendRequest(id, text);
const resume = (id: string) => new Request(`${API}/${id}/stream`);
const stop = (id: string) => new Request(`${API}/${id}/stop`, { method: 'POST' });

const apiError = (status: number) =>
  new ApiError({
    status,
    code: 'api_v1_chat_busy' as never,
    message: 'no',
    data: undefined,
    requestId: undefined,
    errorDetails: undefined,
  });

/** The answer of a route whose `authorize` throws `error`. */
async function answerTo(error: unknown) {
  const { client, id } = await setup();
  const route = createChatRoute({
    client,
    authorize: () => {
      throw error;
    },
  });
  const response = await route.handle(resume(id));
  return { status: response.status, body: (await response.json()) as { error: Record<string, string> } };
}

describe('createChatRoute: the dispatch of send, resume and stop', () => {
  it('without authorize, or with any string but the opt-out, throws a ValidationError naming authorize', async () => {
    const { client } = await setup();
    for (const authorize of [undefined, 'everyone', true]) {
      let thrown: unknown;
      try {
        createChatRoute({ client, authorize: authorize as never });
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(ValidationError);
      expect((thrown as ValidationError).field).toBe('authorize');
      expect((thrown as Error).message).toContain(`'${EVERY_CHAT_TO_EVERY_CALLER}'`);
    }
    expect(EVERY_CHAT_TO_EVERY_CALLER).toBe('every-chat-to-every-caller');
    expect(() => createChatRoute({ client, authorize: EVERY_CHAT_TO_EVERY_CALLER })).not.toThrow();
  });

  it('GET and POST are the same handler; a PUT or DELETE answers 405 naming its method', async () => {
    const { client, id } = await setup();
    const route = createChatRoute({ client, authorize: EVERY_CHAT_TO_EVERY_CALLER });
    expect((await route.GET(resume(id))).status).toBe(204);
    expect((await route.POST(resume(id))).status).toBe(204);
    // With no Redis of its own, close has nothing to close, and still answers a promise.
    const closed = route.close();
    expect(closed).toBeInstanceOf(Promise);
    expect(await closed).toBeUndefined();
    for (const method of ['PUT', 'DELETE', 'PATCH']) {
      const answer = await route.handle(new Request(`${API}/${id}/stop`, { method }));
      expect(answer.status).toBe(405);
      expect(await answer.json()).toEqual({
        error: { name: 'MethodNotAllowed', message: `${method} is not answered here` },
      });
    }
    // A GET of the mount point itself, or of a stream path with no chat id, is not a resume.
    expect((await route.handle(new Request(API))).status).toBe(405);
    expect((await route.handle(new Request('http://app.test/stream'))).status).toBe(405);
  });

  it('a chat id that is not a UUID answers 400 naming chatId on send, resume and stop, before authorize', async () => {
    const { client, mock } = await setup();
    const authorize = vi.fn(() => true);
    const route = createChatRoute({ client, authorize });
    for (const request of [send(NOT_UUID), resume(NOT_UUID), stop(NOT_UUID)]) {
      const answer = await route.handle(request);
      expect(answer.status).toBe(400);
      expect(await answer.json()).toEqual({
        error: {
          name: 'ValidationError',
          field: 'chatId',
          message: "chatId: must be a UUID (the service's chat id)",
        },
      });
    }
    expect(authorize).not.toHaveBeenCalled();
    expect(mock.store.turns()).toHaveLength(0);
  });

  it('authorize gets the request and the chat id; a refusal answers 404 NotFound on each path, nothing sent', async () => {
    const { client, id, mock } = await setup();
    const cancel = vi.spyOn(client.turns, 'cancel');
    const seen: string[] = [];
    const route = createChatRoute({
      client,
      authorize: async (request, chatId) => {
        seen.push(`${request.method} ${chatId}`);
        return false;
      },
    });
    for (const request of [send(id), resume(id), stop(id)]) {
      const answer = await route.handle(request);
      expect(answer.status).toBe(404);
      expect(await answer.json()).toEqual({ error: { name: 'NotFound', message: 'no such chat' } });
    }
    expect(seen).toEqual([`POST ${id}`, `GET ${id}`, `POST ${id}`]);
    expect(cancel).not.toHaveBeenCalled();
    expect(mock.store.turns()).toHaveLength(0);
  });

  it('a resume of a chat the route knows nothing of answers 204 with no body', async () => {
    const { client, id } = await setup();
    const route = createChatRoute({ client, authorize: () => ({ caller: 'u1' }) });
    const answer = await route.handle(resume(id));
    expect(answer.status).toBe(204);
    expect(answer.body).toBeNull();
  });

  it('a stop with no record sends the chat-wide cancel (4.6) only when a real authorize granted the chat', async () => {
    const { client, id } = await setup();
    const cancel = vi.spyOn(client.turns, 'cancel');
    const open = createChatRoute({ client, authorize: EVERY_CHAT_TO_EVERY_CALLER });
    const refused = await open.handle(stop(id));
    expect(refused.status).toBe(200);
    expect(await refused.json()).toEqual({ cancelled: false });
    expect(cancel).not.toHaveBeenCalled();
    for (const grant of [true, { caller: 'u1' }] as ChatGrant[]) {
      const granted = createChatRoute({ client, authorize: () => grant });
      const answer = await granted.handle(stop(id));
      expect(answer.status).toBe(200);
      expect(await answer.json()).toEqual({ cancelled: false });
    }
    expect(cancel.mock.calls).toEqual([[id], [id]]);
  });

  it("{ caller } grants count in that caller's share across chats; true counts each chat on its own", async () => {
    const { client } = await setup();
    const chats = await Promise.all([1, 2, 3].map(() => client.chats.create({})));
    const [a, b, c] = chats.map((chat) => chat.id) as [string, string, string];
    const perCaller = createChatRoute({ client, authorize: () => ({ caller: 'same' }), maxCallerStreams: 1 });
    const first = await perCaller.handle(send(a, '[[mock:hang]] wait'));
    expect(first.status).toBe(200);
    const second = await perCaller.handle(send(b, 'hello'));
    expect(second.status).toBe(429);
    expect(await second.json()).toMatchObject({ error: { name: 'RouteCapacityError' } });
    const perChat = createChatRoute({ client, authorize: () => true, maxCallerStreams: 1 });
    const third = await perChat.handle(send(b, '[[mock:hang]] wait'));
    const fourth = await perChat.handle(send(c, '[[mock:hang]] wait'));
    expect([third.status, fourth.status]).toEqual([200, 200]);
    await Promise.all([first, third, fourth].map((answer) => answer.body?.cancel()));
  });

  it('the opt-out grants every chat, each counted on its own', async () => {
    const { client } = await setup();
    const chats = await Promise.all([1, 2].map(() => client.chats.create({})));
    const route = createChatRoute({ client, authorize: EVERY_CHAT_TO_EVERY_CALLER, maxCallerStreams: 1 });
    const answers = await Promise.all(chats.map((chat) => route.handle(send(chat.id, '[[mock:hang]] wait'))));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    await Promise.all(answers.map((answer) => answer.body?.cancel()));
  });

  it('errors map to statuses: ValidationError 400 with its field, capacity 429 or 503, Redis 503', async () => {
    expect(await answerTo(new ValidationError([{ field: 'x', message: 'is bad' }]))).toEqual({
      status: 400,
      body: { error: { name: 'ValidationError', field: 'x', message: 'x: is bad' } },
    });
    const caller = await answerTo(new RouteCapacityError(2, 'caller'));
    expect(caller.status).toBe(429);
    expect(caller.body.error).toEqual({
      name: 'RouteCapacityError',
      message: new RouteCapacityError(2, 'caller').message,
    });
    const route = await answerTo(new RouteCapacityError(2, 'route'));
    expect(route.status).toBe(503);
    expect(route.body.error.name).toBe('RouteCapacityError');
    const redis = await answerTo(new RedisUnavailableError());
    expect(redis).toEqual({
      status: 503,
      body: { error: { name: 'RedisUnavailableError', message: new RedisUnavailableError().message } },
    });
  });

  it('an ApiError keeps a status in 400-599; any other status is 502; a ConvoError 502; anything else 500', async () => {
    for (const status of [400, 404, 409, 429, 500, 599]) {
      const answer = await answerTo(apiError(status));
      expect(answer.status).toBe(status);
      expect(answer.body).toEqual({ error: { name: 'ApiError', message: apiError(status).message } });
    }
    for (const status of [0, 200, 302, 399, 600, 404.5])
      expect((await answerTo(apiError(status))).status).toBe(502);
    expect(await answerTo(new ConvoError('it broke'))).toEqual({
      status: 502,
      body: { error: { name: 'ConvoError', message: 'it broke' } },
    });
    expect(await answerTo('a string')).toEqual({
      status: 500,
      body: { error: { name: 'Error', message: 'the route failed' } },
    });
  });

  it('with no options, a body is bounded at 4 MiB and a caller at 16 live answers', async () => {
    const { client } = await setup();
    const chats = await Promise.all(Array.from({ length: 17 }, () => client.chats.create({})));
    const route = createChatRoute({ client, authorize: () => ({ caller: 'one' }) });
    const big = await route.handle(send(chats[0]?.id as string, 'x'.repeat(4 * 1024 * 1024)));
    expect(big.status).toBe(400);
    expect(((await big.json()) as { error: { field: string } }).error.field).toBe('body');
    const answers: Response[] = [];
    for (const chat of chats) answers.push(await route.handle(send(chat.id, '[[mock:hang]] wait')));
    expect(answers.map((answer) => answer.status)).toEqual([...Array(16).fill(200), 429]);
    await Promise.all(answers.map((answer) => answer.body?.cancel()));
  });

  it('4.6 a stop after the turn ended, its answer never read, sends no cancel and forgets the turn', async () => {
    const { client, id, mock, gate } = await setup();
    const cancel = vi.spyOn(client.turns, 'cancel');
    const route = createChatRoute({ client, authorize: () => ({ caller: 'u1' }) });
    const answer = await route.handle(send(id, 'hello'));
    expect(answer.status).toBe(200);
    gate.release(100);
    await until(() => mock.store.turns()[0]?.status === 'completed', 'the turn completed');
    const stopped = await route.handle(stop(id));
    expect(await stopped.json()).toEqual({ cancelled: false });
    expect(cancel).not.toHaveBeenCalled();
    expect((await route.handle(resume(id))).status).toBe(204);
    await answer.body?.cancel();
  });

  it('4.6 once an answer was read to its end, the chat has no turn here: a granted stop asks the service chat-wide', async () => {
    const { client, id, gate } = await setup();
    const route = createChatRoute({ client, authorize: () => ({ caller: 'u1' }) });
    const answer = await route.handle(send(id, 'hello'));
    gate.release(100);
    expect(await answer.text()).toContain('"type":"finish"');
    const cancel = vi.spyOn(client.turns, 'cancel');
    const stopped = await route.handle(stop(id));
    expect(await stopped.json()).toEqual({ cancelled: false });
    expect(cancel.mock.calls).toEqual([[id]]);
  });

  it('the action is read from the end of the path, wherever the route is mounted', async () => {
    const { client, id } = await setup();
    const route = createChatRoute({ client, authorize: EVERY_CHAT_TO_EVERY_CALLER });
    for (const base of ['http://app.test', 'http://app.test/a/b/c/api/chat'])
      expect((await route.handle(new Request(`${base}/${id}/stream`))).status).toBe(204);
    const bad = await route.handle(new Request(`${API}/%E0%A4%A/stream`));
    expect(await bad.json()).toEqual({
      error: { name: 'ValidationError', field: 'chatId', message: 'chatId: is not a valid URL path segment' },
    });
  });
});
