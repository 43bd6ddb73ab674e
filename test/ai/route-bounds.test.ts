import { describe, expect, it, vi } from 'vitest';
import { createChatRoute, memoryStreams } from '../../src/ai/index.js';
import { boundStream } from '../../src/ai/route-limits.js';
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
});
