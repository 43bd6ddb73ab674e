import { request as httpRequest } from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../../src/index.js';
import { TimelineBuilder } from '../../src/mock/inspector/timeline.js';
import { useMockServer, withMockServer } from '../support/mock-server.js';

// The inspector of `startMockServer({ inspector: true })` (what `convo-mock` serves unless --no-inspector).
const TOKEN = 'tok_inspector_secret_4f2a';
const OTHER = 'tok_other_secret_9b1c';

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A request over node:http, which (unlike fetch) lets a test set `Host`. */
function raw(
  url: string,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
) {
  return new Promise<Raw>((resolve, reject) => {
    const request = httpRequest(
      `${url}${path}`,
      { method: init.method ?? 'GET', headers: init.headers },
      (response) => {
        let body = '';
        response.setEncoding('utf8').on('data', (chunk: string) => {
          body += chunk;
        });
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body }),
        );
      },
    );
    request.on('error', reject);
    request.end(init.body);
  });
}

const json = { 'content-type': 'application/json' };

describe('the mock inspector', () => {
  const server = useMockServer({ inspector: true, tokens: [{ token: TOKEN }, { token: OTHER, userId: 2 }] });
  let client: Client;
  beforeAll(() => {
    client = new Client({ baseUrl: server.url, token: TOKEN });
  });

  it('GET / serves the page: HTML, not framable, no CORS', async () => {
    const page = await raw(server.url, '/', { headers: { origin: 'http://evil.test' } });
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toContain('<title>convo-mock inspector</title>');
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('refuses a Host that is not its own address (DNS rebinding): 403 on the page and every endpoint', async () => {
    const port = new URL(server.url).port;
    for (const [method, path] of [
      ['GET', '/'],
      ['GET', '/_inspector/state'],
      ['POST', '/_inspector/reset'],
    ] as const) {
      const reply = await raw(server.url, path, {
        method,
        headers: { host: `evil.test:${port}`, ...json },
        ...(method === 'POST' && { body: '{}' }),
      });
      expect(reply.status, `${method} ${path}`).toBe(403);
      expect(reply.body).toContain(`Host 127.0.0.1:${port}`);
    }
    expect(
      (await raw(server.url, '/_inspector/state', { headers: { host: `localhost:${port}` } })).status,
    ).toBe(200);
  });

  it('has no CORS: a preflight gets no allow-origin, and a change from another origin or as a form is refused', async () => {
    const preflight = await raw(server.url, '/_inspector/send', {
      method: 'OPTIONS',
      headers: { origin: 'http://evil.test', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(403);
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    const state = await raw(server.url, '/_inspector/state', { headers: { origin: 'http://evil.test' } });
    expect(state.headers['access-control-allow-origin']).toBeUndefined();
    const crossSite = await raw(server.url, '/_inspector/reset', {
      method: 'POST',
      headers: { origin: 'http://evil.test', ...json },
      body: '{}',
    });
    expect(crossSite.status).toBe(403);
    const form = await raw(server.url, '/_inspector/reset', {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: '{}',
    });
    expect(form.status).toBe(403);
    const fetchMetadata = await raw(server.url, '/_inspector/reset', {
      method: 'POST',
      headers: { 'sec-fetch-site': 'cross-site', ...json },
      body: '{}',
    });
    expect(fetchMetadata.status).toBe(403);
  });

  it('lists each request with method, path, status, credential name and duration, never the token', async () => {
    await client.skills.list();
    await fetch(`${server.url}/api/v1/skills`, { headers: { authorization: `Bearer ${OTHER}` } });
    await fetch(`${server.url}/api/v1/skills`, { headers: { authorization: 'Bearer nope' } });
    const reply = await raw(server.url, '/_inspector/state');
    expect(reply.body).not.toContain(TOKEN);
    expect(reply.body).not.toContain(OTHER);
    const { requests } = JSON.parse(reply.body);
    expect(requests.slice(0, 3)).toMatchObject([
      {
        method: 'GET',
        path: '/api/v1/skills',
        status: 401,
        credential: 'unknown credential',
        from: 'client',
      },
      { method: 'GET', path: '/api/v1/skills', status: 200, credential: '#2 to…(21) user 2' },
      { method: 'GET', path: '/api/v1/skills?page=1', status: 200, credential: '#1 to…(25) user 1' },
    ]);
    expect(typeof requests[0].ms).toBe('number');
  });

  it('4.4 4.5 shows a streamed turn as the client received it, and answers its tool approval for the credential', async () => {
    const stream = client.turns.stream(crypto.randomUUID(), {
      content: 'Look it up [[mock:tool_approval]] [[mock:words n=4]]',
    });
    const final = stream.finalTurn();
    const state = async () => JSON.parse((await raw(server.url, '/_inspector/state')).body);
    let pending: Array<{ action_id: string; kind: string; credential: string; remaining_ms: number }> = [];
    for (let i = 0; i < 100 && pending.length === 0; i++) {
      pending = (await state()).pending;
      if (pending.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(pending).toMatchObject([{ kind: 'tool_approval', credential: '#1 to…(25) user 1' }]);
    expect(pending[0]!.remaining_ms).toBeGreaterThan(100_000);
    const answered = await raw(server.url, '/_inspector/answer', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({
        action_id: pending[0]!.action_id,
        body: { decisions: [{ tool_use_id: 'toolu_1', approved: true }] },
      }),
    });
    expect(answered.status).toBe(200);
    expect(JSON.parse(answered.body).data).toEqual({ action_id: pending[0]!.action_id, state: 'resolved' });
    const turn = await final;
    expect(turn.status).toBe('completed');

    const { turns } = await state();
    const shown = turns.find((t: { id: number }) => t.id === turn.id);
    expect(shown).toMatchObject({ status: 'completed', chat_id: turn.chat_id, key: stream.idempotencyKey });
    const entries = shown.streams[0].entries;
    expect(entries.map((e: { type: string; event?: string }) => e.event ?? e.type)).toEqual([
      'message.start',
      'message.step',
      'message.action_required',
      'message.step',
      'text',
      'message.completed',
    ]);
    expect(entries[4]).toMatchObject({ type: 'text', text: turn.content, deltas: 4, replace: false });
    const times = entries.map((e: { at: number }) => e.at);
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it('sends a turn into a chat from the page, and resets the mock', async () => {
    const sent = await raw(server.url, '/_inspector/send', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ credential: 2, content: 'Hi [[mock:words n=2]]', permission_mode: 'auto' }),
    });
    expect(sent.status).toBe(202);
    const { chat_id } = JSON.parse(sent.body);
    let turns: Array<{ chat_id: string; status: string; credential: string }> = [];
    for (let i = 0; i < 100; i++) {
      turns = JSON.parse((await raw(server.url, '/_inspector/state')).body).turns;
      if (turns.some((t) => t.chat_id === chat_id && t.status === 'completed')) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(turns.find((t) => t.chat_id === chat_id)).toMatchObject({
      status: 'completed',
      credential: '#2 to…(21) user 2',
    });

    const reset = await raw(server.url, '/_inspector/reset', { method: 'POST', headers: json, body: '{}' });
    expect(reset.status).toBe(200);
    const after = JSON.parse((await raw(server.url, '/_inspector/state')).body);
    expect([after.turns, after.requests, server.mock.store.chats()]).toEqual([[], [], []]);
  });

  it('refuses what it cannot do: an unknown interaction, a body that is not JSON, an unknown endpoint', async () => {
    const unknown = await raw(server.url, '/_inspector/answer', {
      method: 'POST',
      headers: json,
      body: '{"action_id":"act_0"}',
    });
    expect([unknown.status, unknown.body.trim()]).toEqual([400, 'no such interaction']);
    const notJson = await raw(server.url, '/_inspector/send', { method: 'POST', headers: json, body: '{' });
    expect(notJson.status).toBe(400);
    expect((await raw(server.url, '/_inspector/nothing')).status).toBe(404);
  });
});

describe('without the inspector', () => {
  it('GET / and /_inspector/state are what they always were: the API 404', async () => {
    await withMockServer(async (server) => {
      for (const path of ['/', '/_inspector/state']) {
        const reply = await fetch(`${server.url}${path}`);
        expect(reply.status).toBe(404);
        expect(await reply.json()).toMatchObject({ message_code: 'api_v1_not_found' });
      }
    });
  });
});

describe('the inspector timeline', () => {
  const encode = (event: string, data: unknown) =>
    new TextEncoder().encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);

  it('6 folds deltas into text, marks where a replace dropped it, counts pings, and marks a stream cut before its terminal event', () => {
    const builder = new TimelineBuilder();
    builder.push(encode('message.start', { chat_id: 'c', message_id: 7, request_id: 'r' }));
    builder.push(encode('message.delta', { text: 'Hel', replace: false }));
    const split = encode('message.delta', { text: 'lo', replace: false });
    builder.push(split.subarray(0, 10));
    builder.push(split.subarray(10));
    builder.push(encode('message.delta', { text: 'Bonjour', replace: true }));
    builder.push(encode('ping', { ts: 1 }));
    builder.push(encode('ping', { ts: 2 }));
    builder.push(encode('message.delta', { text: '!', replace: false }));
    builder.end();
    expect(builder.timeline).toEqual({
      turnId: 7,
      chatId: 'c',
      entries: [
        {
          type: 'event',
          event: 'message.start',
          data: { chat_id: 'c', message_id: 7, request_id: 'r' },
          at: 0,
        },
        { type: 'text', text: 'Hello', deltas: 2, replace: false, at: 0, to: 0 },
        { type: 'text', text: 'Bonjour', deltas: 1, replace: true, at: 0, to: 0 },
        { type: 'ping', count: 2, at: 0, to: 0 },
        { type: 'text', text: '!', deltas: 1, replace: false, at: 0, to: 0 },
      ],
      errorCode: undefined,
      ended: false,
      broken: true,
    });
  });

  it('stays bounded: a long answer is cut with the count of what was not kept, and old events go first', () => {
    const builder = new TimelineBuilder();
    builder.push(encode('message.start', { chat_id: 'c', message_id: 1, request_id: 'r' }));
    const long = 'w'.repeat(100_000);
    builder.push(encode('message.delta', { text: long, replace: false }));
    for (let i = 0; i < 600; i++) builder.push(encode('ping', { ts: i }));
    builder.push(encode('message.completed', { content: long, usage: null }));
    const [start, text, , completed] = builder.timeline.entries;
    expect(start).toMatchObject({ event: 'message.start' });
    expect(text).toMatchObject({ type: 'text', clipped: 100_000 - 64 * 1024 });
    expect(text?.type === 'text' && text.text.length).toBe(64 * 1024);
    expect(completed).toMatchObject({
      event: 'message.completed',
      data: { content: expect.stringMatching(/…\(\+99000 chars\)$/) },
    });
    expect(builder.events[0]?.event).toBe('message.start');
    expect(builder.events.at(-1)?.event).toBe('message.completed');
    expect(builder.events.length).toBeLessThanOrEqual(500);
    expect(builder.events.reduce((sum, e) => sum + e.data.length, 0)).toBeLessThanOrEqual(256 * 1024 + 20);
    expect(builder.dropped).toBeGreaterThan(100);
  });

  it('keeps at most 256 KiB of text and payloads per stream, however many replaces and however large a payload', () => {
    const builder = new TimelineBuilder();
    builder.push(encode('message.start', { chat_id: 'c', message_id: 1, request_id: 'r' }));
    for (let i = 0; i < 300; i++)
      builder.push(encode('message.delta', { text: `${i}`.padEnd(64 * 1024, 'x'), replace: true }));
    const wide = { items: Array.from({ length: 5000 }, (_, i) => ({ i, s: 'y'.repeat(900) })) };
    for (let i = 0; i < 50; i++) builder.push(encode('message.step', wide));
    const { entries } = builder.timeline;
    expect(entries[0]).toMatchObject({ event: 'message.start' });
    expect(JSON.stringify(entries).length).toBeLessThan(256 * 1024 + 32 * 1024);
    const step = entries.at(-1);
    expect(step?.type === 'event' && JSON.stringify(step.data).length).toBeLessThan(20 * 1024);
    const items = step?.type === 'event' ? (step.data as { items: unknown[] }).items : [];
    expect(items.length).toBeLessThanOrEqual(51);
    expect(items.at(-1)).toMatch(/^…\(\+\d+ items\)$/);
  });
});
