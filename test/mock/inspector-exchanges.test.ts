import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Client } from '../../src/index.js';
import { BODY_CAP, MAX_EXCHANGES } from '../../src/mock/inspector/exchanges.js';
import { useMockServer, withMockServer } from '../support/mock-server.js';

// What the inspector records of each exchange, its filters, faults armed from the page and the HAR export.
const TOKEN = 'tok_exchanges_secret_51d0';
const OTHER = 'tok_second_secret_88aa';
const NAMED = 'tok_named_secret_c0ffee';
const json = { 'content-type': 'application/json' };

describe('the inspector: exchanges, filters, faults, export', () => {
  const server = useMockServer({
    inspector: true,
    tokens: [{ token: TOKEN }, { token: OTHER, userId: 1 }, { token: NAMED, userId: 2, name: 'alice' }],
  });
  let client: Client;
  const get = async (path: string) => {
    const reply = await fetch(`${server.url}${path}`);
    const body = await reply.text();
    expect(body).not.toContain(TOKEN);
    expect(body).not.toContain(OTHER);
    expect(body).not.toContain(NAMED);
    return { status: reply.status, body, json: () => JSON.parse(body) };
  };
  const post = (path: string, body: unknown, headers: Record<string, string> = json) =>
    fetch(`${server.url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
  const requests = async (query = '') => (await get(`/_inspector/state${query}`)).json().requests;

  beforeAll(() => {
    client = new Client({ baseUrl: server.url, token: TOKEN, retryDelay: { min: 1, max: 5 } });
  });
  beforeEach(async () => {
    expect((await post('/_inspector/reset', {})).status).toBe(200);
  });

  it('7.2: a 404 carries its message_code in the list', async () => {
    await fetch(`${server.url}/api/v1/skills/999`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect((await requests())[0]).toMatchObject({
      path: '/api/v1/skills/999',
      status: 404,
      code: 'api_v1_not_found',
    });
  });

  it('opens an exchange: request headers with the token masked, body, response headers and body', async () => {
    const skill = await client.skills.create({ name: `Named ${TOKEN}`, instructions: 'Be brief.' });
    const [row] = await requests();
    expect(row).toMatchObject({
      method: 'POST',
      path: '/api/v1/skills',
      status: 201,
      credential: '#1 to…(25) user 1',
    });
    const detail = (await get(`/_inspector/exchange?id=${row.id}`)).json();
    const headers = Object.fromEntries(detail.request.headers);
    expect(headers.authorization).toBe('Bearer [hidden]');
    expect(JSON.parse(detail.request.body.text)).toMatchObject({
      name: 'Named [redacted]',
      instructions: 'Be brief.',
    });
    expect(Object.fromEntries(detail.response.headers)['content-type']).toContain('application/json');
    expect(JSON.parse(detail.response.body.text).data).toMatchObject({ id: skill.id });
    expect(detail.response.events).toBeUndefined();
  });

  it('never shows a token: a bare authorization, a cookie, another header carrying it', async () => {
    await fetch(`${server.url}/api/v1/skills`, {
      headers: { authorization: TOKEN, cookie: `sid=${TOKEN}; a=b`, 'x-api-key': `k ${OTHER}` },
    });
    const [row] = await requests();
    expect(row).toMatchObject({ status: 401, credential: 'no credential' });
    const headers = Object.fromEntries(
      (await get(`/_inspector/exchange?id=${row.id}`)).json().request.headers,
    );
    expect(headers).toMatchObject({
      authorization: '[hidden]',
      cookie: '[hidden]',
      'x-api-key': 'k [redacted]',
    });
  });

  it('credentials by name where code gave one, else two tokens of one user told apart by a masked form', async () => {
    const { credentials } = (await get('/_inspector/state')).json();
    expect(credentials).toEqual([
      expect.objectContaining({ id: 1, name: '#1 to…(25) user 1', user: 1 }),
      expect.objectContaining({ id: 2, name: '#2 to…(22) user 1', user: 1 }),
      expect.objectContaining({ id: 3, name: 'alice #3 user 2', user: 2 }),
    ]);
    expect(credentials[0].scopes).toContain('chat:write');
  });

  it('keeps the start of a body past the cap, and its full size', async () => {
    const name = 'x'.repeat(BODY_CAP + 100);
    const body = JSON.stringify({ name, instructions: 'i' });
    await fetch(`${server.url}/api/v1/skills`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, ...json },
      body,
    });
    const [row] = await requests();
    const { request } = (await get(`/_inspector/exchange?id=${row.id}`)).json();
    expect(request.body).toMatchObject({ truncated: true, bytes: body.length });
    expect(request.body.text.length).toBe(BODY_CAP);
    expect(MAX_EXCHANGES).toBe(200);
  });

  it('counts a body refused unread (401, 413) at its declared Content-Length, marked truncated', async () => {
    const body = JSON.stringify({ name: 'y'.repeat(BODY_CAP * 2), instructions: 'i' });
    await fetch(`${server.url}/api/v1/skills`, { method: 'POST', headers: { ...json }, body });
    const [refused] = await requests();
    expect(refused.status).toBe(401);
    const unread = (await get(`/_inspector/exchange?id=${refused.id}`)).json().request.body;
    expect(unread).toMatchObject({ bytes: body.length, truncated: true });
    const huge = 'z'.repeat(9 * 1024 * 1024);
    await fetch(`${server.url}/api/v1/skills`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, ...json },
      body: huge,
    });
    const [tooLarge] = await requests();
    expect(tooLarge.status).toBe(413);
    const big = (await get(`/_inspector/exchange?id=${tooLarge.id}`)).json().request.body;
    expect(big).toMatchObject({ bytes: huge.length, truncated: true });
  });

  it('4.4: a stream exchange holds its events with their times; the turn its metadata, model, usage and event times', async () => {
    const chat = crypto.randomUUID();
    const turn = await client.turns
      .stream(chat, { content: 'Hi [[mock:words n=3]] [[mock:slow ms=20]]', metadata: { ticket: 'T-1' } })
      .finalTurn();
    const [row] = await requests(`?chat=${chat}`);
    expect(row).toMatchObject({ stream: true, open: false, chatId: chat, status: 200 });
    const { response } = (await get(`/_inspector/exchange?id=${row.id}`)).json();
    const names = response.events.map((e: { event: string }) => e.event);
    expect(names[0]).toBe('message.start');
    expect(names.at(-1)).toBe('message.completed');
    const times = response.events.map((e: { at: number }) => e.at);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(times.at(-1)).toBeGreaterThanOrEqual(40);
    const shown = (await get('/_inspector/state')).json().turns.find((t: { id: number }) => t.id === turn.id);
    expect(shown).toMatchObject({ metadata: { ticket: 'T-1' }, model: '1 mock-large', usage: turn.usage });
    expect(shown.streams[0].entries.at(-1)).toMatchObject({ event: 'message.completed', at: times.at(-1) });
  });

  it('filters by path, status, credential and chat', async () => {
    const other = new Client({ baseUrl: server.url, token: OTHER });
    await client.skills.list();
    await other.skills.list();
    await fetch(`${server.url}/api/v1/skills/999`, { headers: { authorization: `Bearer ${TOKEN}` } });
    const chat = crypto.randomUUID();
    await client.turns.send(chat, { content: 'Hi [[mock:words n=1]]' });
    const ids = (list: Array<{ path: string }>) => list.map((r) => r.path);
    expect(ids(await requests('?path=/skills/999'))).toEqual(['/api/v1/skills/999']);
    expect(ids(await requests('?status=4xx'))).toEqual(['/api/v1/skills/999']);
    expect(ids(await requests('?status=404'))).toEqual(['/api/v1/skills/999']);
    expect(await requests('?credential=2')).toMatchObject([{ credential: '#2 to…(22) user 1' }]);
    expect(ids(await requests(`?chat=${chat.slice(0, 8)}`))).toEqual([`/api/v1/chats/${chat}/messages`]);
    expect(await requests('?status=&path=')).toHaveLength(4);
  });

  it('refuses a filter out of bounds with 400, naming it, and a read another site sends with 403', async () => {
    for (const [query, message] of [
      ['?status=abc', 'filter status'],
      ['?status=6xx', 'filter status'],
      ['?credential=x', 'filter credential'],
      [`?path=${'a'.repeat(201)}`, 'filter path'],
      [`?chat=${'c'.repeat(201)}`, 'filter chat'],
    ]) {
      const reply = await get(`/_inspector/state${query}`);
      expect([reply.status, reply.body], query).toEqual([400, expect.stringContaining(message!)]);
    }
    expect((await get('/_inspector/har?status=x')).status).toBe(400);
    for (const path of ['/_inspector/state', '/_inspector/har', '/_inspector/exchange?id=1']) {
      const crossSite = await fetch(`${server.url}${path}`, { headers: { 'sec-fetch-site': 'cross-site' } });
      expect(crossSite.status, path).toBe(403);
    }
    expect((await get('/_inspector/exchange?id=abc')).status).toBe(400);
    expect((await get('/_inspector/exchange?id=999999')).status).toBe(400);
  });

  it('7.5: a 503 with retry_action retry armed from the page is fired by the next call, which the client retries', async () => {
    const armed = await post('/_inspector/faults', {
      route: 'path',
      path: '/api/v1/skills',
      action: 'respond',
      status: 503,
      code: 'api_v1_service_unavailable',
      retry_action: 'retry',
    });
    expect(armed.status).toBe(201);
    expect((await get('/_inspector/state')).json().faults.page).toMatchObject([
      {
        state: 'armed',
        left: 1,
        description: 'path ~ /api/v1/skills: 503 api_v1_service_unavailable (retry_action retry)',
      },
    ]);
    expect(server.mock.faults.list()).toMatchObject([{ times: 1, respond: { status: 503 } }]);
    await expect(client.skills.list()).resolves.toMatchObject({ items: [] });
    const list = await requests();
    expect(list.slice(0, 2)).toMatchObject([
      { status: 200 },
      { status: 503, code: 'api_v1_service_unavailable', fault: expect.stringContaining('503') },
    ]);
    expect(list[0].fault).toBeUndefined();
    expect((await get('/_inspector/state')).json().faults.page).toMatchObject([
      { state: 'fired', left: 0, firedOn: [list[1].id] },
    ]);
  });

  it('7.3: a respond fault from the page needs the data its code has; every preset arms', async () => {
    const bare = await post('/_inspector/faults', {
      route: 'send',
      action: 'respond',
      status: 409,
      code: 'api_v1_chat_busy',
    });
    expect(bare.status).toBe(400);
    expect(await bare.text()).toMatch(/api_v1_chat_busy needs the data the contract gives it: data/);
    const page = (await get('/')).body;
    const presets = /const PRESETS = (\[[\s\S]*?\n\]);/.exec(page)![1]!;
    for (const [label, fault] of new Function(`return ${presets}`)() as [string, unknown][])
      expect((await post('/_inspector/faults', fault)).status, label).toBe(201);
    expect((await post('/_inspector/faults/clear', {})).status).toBe(200);
  });

  it('6.2: a 409 chat busy and a stream cut armed from the page hit the named routes; clear removes waiting ones', async () => {
    await post('/_inspector/faults', {
      route: 'send',
      action: 'respond',
      status: 409,
      code: 'api_v1_chat_busy',
      data: { message_id: 4 },
    });
    await expect(client.turns.send(crypto.randomUUID(), { content: 'x' })).rejects.toMatchObject({
      status: 409,
      code: 'api_v1_chat_busy',
      data: { message_id: 4 },
    });
    await post('/_inspector/faults', { route: 'stream', action: 'cutAfterEvents', events: 2, times: 3 });
    await post('/_inspector/faults', { route: 'cancel', action: 'drop' });
    server.mock.faults.add({
      route: 'answer',
      respond: { status: 503, code: 'api_v1_interaction_backend_unavailable' },
    });
    const { faults } = (await get('/_inspector/state')).json();
    expect(faults.page.map((f: { description: string; state: string }) => [f.description, f.state])).toEqual([
      ['cancel: drop the response', 'armed'],
      ['stream: cut the stream after 2 events', 'armed'],
      ['send: 409 api_v1_chat_busy', 'fired'],
    ]);
    expect(faults.code).toEqual(['answer: 503 api_v1_interaction_backend_unavailable ×1']);
    expect((await post('/_inspector/faults/clear', {})).status).toBe(200);
    expect(server.mock.faults.list()).toEqual([]);
    const after = (await get('/_inspector/state')).json().faults;
    expect(after.page.map((f: { state: string }) => f.state)).toEqual(['cleared', 'cleared', 'fired']);
  });

  it('a delay armed from the page holds the next matching request, then it is answered', async () => {
    await post('/_inspector/faults', { route: 'path', path: '/api/v1/skills', action: 'delay', ms: 150 });
    const started = performance.now();
    await client.skills.list();
    expect(performance.now() - started).toBeGreaterThanOrEqual(145);
    const [row] = await requests();
    expect(row).toMatchObject({ status: 200, fault: 'path ~ /api/v1/skills: delay 150 ms' });
    expect(row.ms).toBeGreaterThanOrEqual(145);
  });

  it('replaces a short token in the path, the query and the HAR url, and takes chatId from the masked path', async () => {
    await withMockServer({ inspector: true, tokens: [{ token: 'alice' }] }, async (short) => {
      await fetch(`${short.url}/api/v1/chats/alice/turns?x=alice&y=%61lice`, {
        headers: { authorization: 'Bearer alice' },
      });
      const state = await (await fetch(`${short.url}/_inspector/state`)).json();
      const [row] = state.requests;
      expect(row.path).toBe('/api/v1/chats/[redacted]/turns?x=[redacted]&y=[redacted]');
      expect(row.chatId).toBe('[redacted]');
      const har = await (await fetch(`${short.url}/_inspector/har`)).text();
      expect(har).not.toMatch(/alice/);
      expect(har).toContain('[redacted]');
    });
  });

  it('credits a fault to the request that used it: a GET finishing during a send delay is not marked', async () => {
    await post('/_inspector/faults', { route: 'send', action: 'delay', ms: 300 });
    const sending = client.turns.send(crypto.randomUUID(), { content: 'x' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    await client.skills.list();
    await sending;
    const list = await requests();
    const get_ = list.find((row: { method: string }) => row.method === 'GET');
    const send = list.find((row: { method: string }) => row.method === 'POST');
    expect(get_.fault).toBeUndefined();
    expect(send.fault).toBe('send: delay 300 ms');
    expect((await get('/_inspector/state')).json().faults.page).toMatchObject([
      { state: 'fired', left: 0, firedOn: [send.id] },
    ]);
  });

  it('an inProgress fault counts its replays, and an unrelated request does not fire it', async () => {
    await post('/_inspector/faults', { route: 'send', action: 'inProgress', times: 2 });
    expect((await get('/_inspector/state')).json().faults.page).toMatchObject([{ state: 'armed', left: 2 }]);
    await client.skills.list();
    const [row] = await requests();
    expect(row.fault).toBeUndefined();
    expect((await get('/_inspector/state')).json().faults.page).toMatchObject([
      { state: 'armed', left: 2, firedOn: [] },
    ]);
  });

  it('refuses a fault form out of bounds with 400, and from elsewhere with 403', async () => {
    const base = { route: 'send', action: 'respond', status: 503, code: 'api_v1_service_unavailable' };
    for (const [body, message] of [
      [{ ...base, status: 200 }, 'status must be'],
      [{ ...base, code: '<script>' }, 'code must be'],
      [{ ...base, retry_action: 'later' }, 'retry_action must be'],
      [{ ...base, route: 'skills' }, 'route must be'],
      [{ ...base, route: 'path', path: 'no-slash' }, 'path must start'],
      [{ ...base, times: 0 }, 'times must be'],
      [{ ...base, action: 'explode' }, 'action must be'],
      [{ route: 'stream', action: 'cutAfterEvents', events: -1 }, 'events must be'],
      [{ route: 'stream', action: 'malformed', malformed: 'nope' }, 'malformed must be'],
      [{ route: 'send', action: 'delay', ms: 600_001 }, 'ms must be'],
    ] as const) {
      const reply = await post('/_inspector/faults', body);
      expect([reply.status, await reply.text()], JSON.stringify(body)).toEqual([
        400,
        expect.stringContaining(message),
      ]);
    }
    const crossSite = await post('/_inspector/faults', base, { ...json, 'sec-fetch-site': 'cross-site' });
    const form = await post('/_inspector/faults', base, {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect([crossSite.status, form.status]).toEqual([403, 403]);
    expect(server.mock.faults.list()).toEqual([]);
  });

  it('exports the session as HAR 1.2: every request, a stream as its event text, no token', async () => {
    await client.skills.create({ name: 'A', instructions: 'B' });
    await fetch(`${server.url}/api/v1/skills/999`, { headers: { authorization: `Bearer ${OTHER}` } });
    const chat = crypto.randomUUID();
    await client.turns.stream(chat, { content: 'Hi [[mock:words n=2]]' }).finalTurn();
    const reply = await fetch(`${server.url}/_inspector/har`);
    expect(reply.headers.get('content-disposition')).toMatch(/^attachment; filename="convo-mock-.*\.har"$/);
    expect(reply.headers.get('access-control-allow-origin')).toBeNull();
    const text = await reply.text();
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain(OTHER);
    const { log } = JSON.parse(text);
    expect(log.version).toBe('1.2');
    expect(
      log.entries.map(
        (e: { request: { method: string; url: string } }) =>
          `${e.request.method} ${new URL(e.request.url).pathname}`,
      ),
    ).toEqual([
      'POST /api/v1/skills',
      'GET /api/v1/skills/999',
      `POST /api/v1/chats/${chat}/messages/stream`,
    ]);
    const [create, missing, stream] = log.entries;
    expect(JSON.parse(create.request.postData.text)).toEqual({ name: 'A', instructions: 'B' });
    expect(create.request.headers).toContainEqual({ name: 'authorization', value: 'Bearer [hidden]' });
    expect(missing.response).toMatchObject({ status: 404 });
    expect(missing._convo).toMatchObject({
      messageCode: 'api_v1_not_found',
      credential: '#2 to…(22) user 1',
    });
    expect(stream.response.content.mimeType).toContain('text/event-stream');
    expect(stream.response.content.text).toMatch(/^event: message\.start\ndata: \{.*\}\n\n/);
    expect(stream.response.content.text).toContain('event: message.completed\n');
    expect(stream._convo.events.length).toBeGreaterThan(3);
    const filtered = JSON.parse(await (await fetch(`${server.url}/_inspector/har?status=4xx`)).text());
    expect(filtered.log.entries).toHaveLength(1);
  });
});
