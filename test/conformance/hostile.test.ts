import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformance } from '../../src/conformance/index.js';
import { MAX_BODY_BYTES, MAX_EVENTS } from '../../src/conformance/wire.js';
import { type MockServer, startMockServer } from '../../src/mock/index.js';
import { type Fault, json, startFaultProxy } from './fault-proxy.js';

// A service that lies: the kit must change and delete only what it created, and fail what it cannot read.
const tokens = { main: 'mock-token' };
const auth = { authorization: 'Bearer mock-token', 'content-type': 'application/json' };
let mock: MockServer;
let skill: number;
let chat: string;

async function call(
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; data: Record<string, unknown> }> {
  const answer = await fetch(`${mock.url}${path}`, {
    method,
    headers: auth,
    body: body === undefined ? null : JSON.stringify(body),
  });
  return { status: answer.status, data: ((await answer.json()) as { data: Record<string, unknown> }).data };
}

beforeAll(async () => {
  mock = await startMockServer({ port: 0, tokens: [{ token: 'mock-token' }] });
  skill = (await call('POST', '/api/v1/skills', { name: 'precious', instructions: 'keep' })).data
    .id as number;
  chat = (await call('POST', '/api/v1/chats', { name: 'precious' })).data.id as string;
});

afterAll(() => mock?.close());

/** Fails the test unless the skill and chat the run did not create are as they were. */
async function expectUntouched() {
  const read = await call('GET', `/api/v1/skills/${skill}`);
  expect(read).toMatchObject({ status: 200, data: { name: 'precious', is_active: true } });
  expect(await call('GET', `/api/v1/chats/${chat}`)).toMatchObject({
    status: 200,
    data: { name: 'precious', is_favorite: false },
  });
}

async function runThrough(fault: Fault, options: { requestTimeoutMs?: number } = {}) {
  const proxy = await startFaultProxy(mock.url, fault);
  try {
    return await runConformance({ url: proxy.url, tokens, ...options });
  } finally {
    await proxy.close();
  }
}

describe('the conformance kit against a hostile service', () => {
  it('4.1, 4.2: creations answered with an existing skill and chat: fails, and never changes or deletes them', async () => {
    const report = await runThrough(
      json((body, answer) => {
        const data = body.data as Record<string, unknown>;
        if (answer.call === 'POST /api/v1/skills' && answer.status === 201) data.id = skill;
        if (answer.call === 'POST /api/v1/chats' && answer.status < 300) data.id = chat;
      }),
    );
    expect(report.ok).toBe(false);
    expect(report.results.find((result) => result.section === '4.1')).toMatchObject({
      outcome: 'fail',
      expected: expect.stringMatching(new RegExp(`^4\\.1 "[^"]+": skill ${skill} reading back as created`)),
    });
    await expectUntouched();
  });

  it('4.2: a chat id "../skills/N" is refused before it reaches a path: the skill is untouched', async () => {
    const sent: string[] = [];
    const report = await runThrough((answer) => {
      sent.push(answer.call);
      if (answer.call !== 'POST /api/v1/chats' || answer.status >= 300) return answer;
      const body = JSON.parse(answer.body) as { data: Record<string, unknown> };
      body.data.id = `../skills/${skill}`;
      return { ...answer, body: JSON.stringify(body) };
    });
    expect(report.ok).toBe(false);
    expect(report.results.find((result) => result.section === '4.2')).toMatchObject({
      outcome: 'fail',
      got: expect.stringContaining('../skills/'),
    });
    expect(sent).not.toContain(`DELETE /api/v1/skills/${skill}`);
    expect(sent.filter((line) => line.includes('..'))).toEqual([]);
    await expectUntouched();
  });

  it('2.1: a list answer over 4 MiB fails the check that read it, naming the request', async () => {
    const report = await runThrough((answer) =>
      answer.call === 'GET /api/v1/chats' && answer.query.includes('is_favorite')
        ? { ...answer, body: `{"pad":"${'a'.repeat(MAX_BODY_BYTES)}"}` }
        : answer,
    );
    expect(report.ok).toBe(false);
    expect(report.results.filter((result) => result.outcome === 'fail')).toEqual([
      expect.objectContaining({
        section: '4.2',
        got: expect.stringMatching(/larger than 4194304 bytes/),
        request: expect.objectContaining({
          call: expect.stringMatching(/^GET \/api\/v1\/chats\?is_favorite/),
          status: 200,
        }),
      }),
    ]);
  });

  it(`6: a stream of more than ${MAX_EVENTS} events fails, naming the request`, async () => {
    const report = await runThrough((answer) =>
      answer.contentType.startsWith('text/event-stream')
        ? { ...answer, body: `${'event: ping\ndata: {"ts":1}\n\n'.repeat(MAX_EVENTS + 1)}${answer.body}` }
        : answer,
    );
    expect(report.ok).toBe(false);
    const failed = report.results.filter((result) => result.outcome === 'fail');
    expect(failed[0]).toMatchObject({
      expected: expect.stringContaining(`at most ${MAX_EVENTS} events`),
      request: { call: expect.stringMatching(/\/messages\/stream$/) },
    });
  });

  it('2.5: an answer that never comes within the request bound fails, it is not skipped', async () => {
    const report = await runThrough(
      (answer) => (answer.call === 'GET /api/v1/chat/catalog' ? 'hang' : answer),
      {
        requestTimeoutMs: 300,
      },
    );
    expect(report.ok).toBe(false);
    expect(report.results.find((result) => result.section === '2.5')).toMatchObject({
      outcome: 'fail',
      got: expect.stringMatching(/^no answer/),
      request: { call: 'GET /api/v1/chat/catalog' },
    });
  });
});

describe('the conformance run within its bound', () => {
  it("a service that stops answering: the cleanup ends within the run's bound, and says what it left", async () => {
    let sent = 0;
    // Answers the first 12 requests, then none: every later one waits until its signal aborts it.
    const stalling: typeof fetch = (input, init) => {
      if (++sent <= 12) return fetch(input, init);
      return new Promise((_, reject) => {
        const signal = init?.signal;
        if (signal?.aborted) reject(signal.reason);
        signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
      });
    };
    const report = await runConformance({ url: mock.url, tokens, timeoutMs: 1200, fetch: stalling });
    expect(report.results.at(-1)).toMatchObject({
      section: '4',
      outcome: 'fail',
      got: expect.stringMatching(/^left behind: \/api\/v1\//),
    });
    expect(report.ok).toBe(false);
  });
});
