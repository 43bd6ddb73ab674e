import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../../src/client.js';
import { createMock } from '../../src/mock/index.js';
import { mswHandlers } from '../../src/mock/msw.js';
import { parseReply, postStream } from './helpers.js';
import { EventReader } from './sse.js';

const mock = createMock();
const custom = createMock({ tokens: [{ token: 'other' }] });
const prefixed = createMock({ tokens: [{ token: 'gateway' }] });
const server = setupServer(
  ...mswHandlers(mock),
  ...mswHandlers(custom, { baseUrl: 'https://api.example.test/' }),
  ...mswHandlers(prefixed, { baseUrl: 'https://gateway.test/convo/' }),
);

beforeAll(() => server.listen());
afterAll(() => server.close());

describe('8 served by msw handlers', () => {
  it('the global fetch to http://convo.mock reaches the mock', async () => {
    const created = await fetch('http://convo.mock/api/v1/skills', {
      method: 'POST',
      headers: { authorization: 'Bearer mock-token', 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'n', instructions: 'i' }),
    });
    expect(created.status).toBe(201);
    expect(mock.store.skills().length).toBe(1);
  });

  it('errors and CORS headers pass through unchanged', async () => {
    const reply = await parseReply(
      await fetch('http://convo.mock/api/v1/skills', { headers: { origin: 'http://page.test' } }),
    );
    expect([reply.status, reply.body.message_code]).toEqual([401, 'api_v1_unauthorized']);
    expect(reply.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('a baseUrl with a path prefix: the Client given it reaches the mock, a send and a stream included', async () => {
    const client = new Client({ baseUrl: 'https://gateway.test/convo', token: 'gateway' });
    const skill = await client.skills.create({ name: 'n', instructions: 'i' });
    expect(prefixed.store.skills().map(({ id }) => id)).toEqual([skill.id]);
    const turn = await client.turns.send(crypto.randomUUID(), { content: 'Hello [[mock:words n=3]]' });
    expect(turn.status).toBe('completed');
    const streamed = await client.turns
      .stream(crypto.randomUUID(), { content: 'Hi [[mock:words n=2]]' })
      .finalTurn();
    expect(streamed.content.split(' ')).toHaveLength(2);
    // Outside the prefix nothing is intercepted for this mock.
    await expect(fetch('https://gateway.test/api/v1/skills')).rejects.toThrow();
  });

  it('baseUrl picks the origin to intercept (a trailing slash is ignored)', async () => {
    const reply = await fetch('https://api.example.test/api/v1/skills', {
      headers: { authorization: 'Bearer other' },
    });
    expect(reply.status).toBe(200);
  });
});

describe('faults through msw', () => {
  it('a dropped connection (Response.error()) reaches the fetch caller as a network error', async () => {
    mock.faults.add({ route: 'send', drop: 'before-response' });
    const chatId = crypto.randomUUID();
    const attempt = fetch(`http://convo.mock/api/v1/chats/${chatId}/messages`, {
      method: 'POST',
      headers: {
        authorization: 'Bearer mock-token',
        'content-type': 'application/json',
        'idempotency-key': 'k',
      },
      body: JSON.stringify({ content: 'hi', permission_mode: 'auto' }),
    });
    await expect(attempt).rejects.toThrow(TypeError);
    expect(mock.runs('k')).toBe(1);
  });
});

describe('streams through msw', () => {
  it('4.4 the SSE body reaches the fetch caller and parses', async () => {
    const response = await postStream('http://convo.mock', 'through msw');
    const events = await new EventReader(response.body!).rest();
    expect(events.at(-1)?.data.content).toBe('Mock answer: through msw');
  });
});

describe('aborting a stream through msw', () => {
  it('4.4 the client aborts a stalled stream: its read rejects, the process sees no uncaught error', async () => {
    mock.faults.add({ route: 'stream', stall: { afterEvents: 2 } });
    const controller = new AbortController();
    const response = await postStream('http://convo.mock', 'x', { key: 'a', signal: controller.signal });
    const reader = new EventReader(response.body!);
    expect((await reader.next())?.event).toBe('message.start');
    setTimeout(() => controller.abort(), 20);
    await expect(reader.rest()).rejects.toThrow(/abort/i);
    // An uncaught assertion of undici would surface here, after the socket closed.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(mock.runs('a')).toBe(1);
  });
});
