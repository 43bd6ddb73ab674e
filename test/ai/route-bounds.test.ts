import { describe, expect, it, vi } from 'vitest';
import { createChatRoute, memoryStreams, RedisUnavailableError } from '../../src/ai/index.js';
import { boundStream } from '../../src/ai/route-limits.js';
import { ConvoError } from '../../src/index.js';
import { mockClient } from '../support/mock-client.js';
import { gatedClock, STEP_MS, until } from './route-support.js';

const API = 'http://app.test/api/chat';

async function setup() {
  const gate = gatedClock();
  const { mock, client } = mockClient({ clock: gate.clock });
  const { id } = await client.chats.create({});
  return { gate, mock, client, id };
}

const post = (body: unknown, init: RequestInit = {}) =>
  new Request(API, { method: 'POST', body: typeof body === 'string' ? body : JSON.stringify(body), ...init });

const send = (id: string, text: string) =>
  post({
    id,
    trigger: 'submit-message',
    messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text }] }],
  });

describe('createChatRoute: every input bounded, every failure typed', () => {
  it('a body over maxBodyBytes answers 400 ValidationError naming body, and sends nothing', async () => {
    const { client, id, mock } = await setup();
    const route = createChatRoute({ client, authorize: 'every-chat-to-every-caller', maxBodyBytes: 100 });
    const response = await route.handle(send(id, 'x'.repeat(200)));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: { name: 'ValidationError', field: 'body', message: 'body: exceeds 100 bytes' },
    });
    expect(mock.store.turns()).toHaveLength(0);
  });

  it('a body that is not JSON, or has no chat id, answers 400 naming the field', async () => {
    const { client } = await setup();
    const route = createChatRoute({ client, authorize: 'every-chat-to-every-caller' });
    const notJson = await route.handle(post('{nope'));
    expect(((await notJson.json()) as { error: { field: string } }).error.field).toBe('body');
    const noId = await route.handle(post({ trigger: 'submit-message', messages: [] }));
    expect(noId.status).toBe(400);
    expect(((await noId.json()) as { error: { field: string } }).error.field).toBe('chatId');
  });

  it('a chat authorize refuses answers 404 on every path, and nothing reaches the service', async () => {
    const { client, id, mock } = await setup();
    const route = createChatRoute({ client, authorize: () => false });
    const answers = await Promise.all([
      route.handle(send(id, 'hello')),
      route.handle(new Request(`${API}/${id}/stream`)),
      route.handle(new Request(`${API}/${id}/stop`, { method: 'POST' })),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([404, 404, 404]);
    expect(mock.store.turns()).toHaveLength(0);
  });

  it('past maxStreams live answers, a new turn answers 503 RouteCapacityError before it is sent', async () => {
    const { client, mock } = await setup();
    const route = createChatRoute({
      client,
      authorize: 'every-chat-to-every-caller',
      streams: memoryStreams(1),
    });
    const one = await client.chats.create({});
    const two = await client.chats.create({});
    const first = await route.handle(send(one.id, '[[mock:hang]] wait'));
    expect(first.status).toBe(200);
    const second = await route.handle(send(two.id, 'hello'));
    expect(second.status).toBe(503);
    expect(((await second.json()) as { error: { name: string } }).error.name).toBe('RouteCapacityError');
    expect(mock.store.turns()).toHaveLength(1);
    await first.body?.cancel();
  });

  it('past maxStreamBytes the answer ends with an error chunk naming the bound; the turn is not cancelled', async () => {
    const { client, id, mock, gate } = await setup();
    const route = createChatRoute({ client, authorize: 'every-chat-to-every-caller', maxStreamBytes: 600 });
    gate.release(1000);
    const response = await route.handle(send(id, `[[mock:slow ms=${STEP_MS}]] [[mock:words n=200]] long`));
    const text = await response.text();
    expect(text).toContain('maxStreamBytes (600 bytes)');
    expect(new TextEncoder().encode(text).byteLength).toBeLessThan(600 + 400);
    // The read stopped, not the turn: it runs to its end on the service.
    await until(() => mock.store.turns()[0]?.status !== 'pending', 'the turn ended');
    expect(mock.store.turns()[0]?.status).toBe('completed');
  });

  it('a chat id that is not a URL path segment answers 400 naming chatId', async () => {
    const { client } = await setup();
    const route = createChatRoute({ client, authorize: 'every-chat-to-every-caller' });
    const answer = await route.handle(new Request(`${API}/%E0%A4%A/stream`));
    expect(answer.status).toBe(400);
    expect(((await answer.json()) as { error: { field: string } }).error.field).toBe('chatId');
  });

  it('an unknown method answers 405', async () => {
    const { client } = await setup();
    const route = createChatRoute({ client, authorize: 'every-chat-to-every-caller' });
    expect((await route.handle(new Request(API, { method: 'PUT' }))).status).toBe(405);
  });

  it('past maxStreamMs the answer ends with an error chunk naming the bound, and its source is released', async () => {
    vi.useFakeTimers();
    try {
      let released = false;
      const source = new ReadableStream<string>({
        cancel() {
          released = true;
        },
      });
      const reader = boundStream(source, { maxBytes: 1000, maxMs: 5000 }).getReader();
      const next = reader.read();
      await vi.advanceTimersByTimeAsync(5000);
      expect((await next).value).toContain('maxStreamMs (5000 ms)');
      expect((await reader.read()).done).toBe(true);
      expect(released).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it('each field of the posted body is checked and named: body, chatId, trigger, messageId', async () => {
    const { client, id, mock } = await setup();
    const route = createChatRoute({ client, authorize: 'every-chat-to-every-caller' });
    const cases: Array<[unknown, string, string]> = [
      [null, 'body', 'body: must be an object'],
      ['text', 'body', 'body: must be an object'],
      [{ id: 7, trigger: 'submit-message' }, 'chatId', 'chatId: must be a string (the body\'s "id")'],
      [{ id, trigger: 'resume' }, 'trigger', "trigger: must be 'submit-message' or 'regenerate-message'"],
      [{ id, trigger: 'submit-message', messageId: 3 }, 'messageId', 'messageId: must be a string'],
      [
        { id: 'chat-1', trigger: 'submit-message' },
        'chatId',
        "chatId: must be a UUID (the service's chat id)",
      ],
    ];
    for (const [body, field, message] of cases) {
      const answer = await route.handle(post(body === 'text' ? '"text"' : body));
      expect(answer.status).toBe(400);
      expect(await answer.json()).toEqual({ error: { name: 'ValidationError', field, message } });
    }
    // Both triggers pass the check (the regenerate is refused later, by the messages it carries).
    const regenerate = await route.handle(post({ id, trigger: 'regenerate-message', messages: [] }));
    expect(((await regenerate.json()) as { error: { field: string } }).error.field).toBe('messages');
    expect(mock.store.turns()).toHaveLength(0);
  });

  it('only GET …/stream resumes and only POST …/stop stops; anything else but a POST is 405 MethodNotAllowed', async () => {
    const { client, id } = await setup();
    const route = createChatRoute({ client, authorize: 'every-chat-to-every-caller' });
    const getStop = await route.handle(new Request(`${API}/${id}/stop`));
    expect(getStop.status).toBe(405);
    expect(await getStop.json()).toEqual({
      error: { name: 'MethodNotAllowed', message: 'GET is not answered here' },
    });
    const getOther = await route.handle(new Request(`${API}/${id}/other`));
    expect(getOther.status).toBe(405);
    // A POST to the resume path is a send: its body is read (and here refused).
    const postStream = await route.handle(new Request(`${API}/${id}/stream`, { method: 'POST', body: '{}' }));
    expect(((await postStream.json()) as { error: { field: string } }).error.field).toBe('chatId');
    // A resume under a trailing slash is the same resume.
    expect((await route.handle(new Request(`${API}/${id}/stream/`))).status).toBe(204);
    expect(await route.close()).toBeUndefined();
  });

  it("a failure outside the SDK's errors answers 500 without its message; an SDK error 502 naming its class", async () => {
    const { client, id } = await setup();
    const failing = (error: Error) =>
      createChatRoute({
        client,
        authorize: () => {
          throw error;
        },
      });
    const plain = await failing(new Error('secret detail')).handle(new Request(`${API}/${id}/stream`));
    expect(plain.status).toBe(500);
    expect(await plain.json()).toEqual({ error: { name: 'Error', message: 'the route failed' } });
    const sdk = await failing(new ConvoError('it broke')).handle(new Request(`${API}/${id}/stream`));
    expect(sdk.status).toBe(502);
    expect(await sdk.json()).toEqual({ error: { name: 'ConvoError', message: 'it broke' } });
    const redis = await failing(new RedisUnavailableError()).handle(new Request(`${API}/${id}/stream`));
    expect(redis.status).toBe(503);
    expect(((await redis.json()) as { error: { name: string } }).error.name).toBe('RedisUnavailableError');
  });

  it('maxStreams bounds the live answers of the route (503, scope route) before anything is sent', async () => {
    const { client, mock } = await setup();
    const route = createChatRoute({ client, authorize: () => true, maxStreams: 1 });
    const one = await client.chats.create({});
    const two = await client.chats.create({});
    const first = await route.handle(send(one.id, '[[mock:hang]] wait'));
    const second = await route.handle(send(two.id, 'hello'));
    expect(second.status).toBe(503);
    expect(await second.json()).toMatchObject({ error: { name: 'RouteCapacityError' } });
    expect(mock.store.turns()).toHaveLength(1);
    await first.body?.cancel();
  });

  it('the answer is the AI SDK UI message stream: its headers, then SSE data lines', async () => {
    const { client, id, gate } = await setup();
    const route = createChatRoute({ client, authorize: 'every-chat-to-every-caller' });
    gate.release(100);
    const answer = await route.handle(send(id, 'hello'));
    expect(answer.headers.get('content-type')).toBe('text/event-stream');
    expect(answer.headers.get('x-vercel-ai-ui-message-stream')).toBe('v1');
    expect(await answer.text()).toMatch(/^data: \{"type":"start"/);
  });
});
