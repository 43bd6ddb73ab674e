import { createParser } from 'eventsource-parser';
import { describe, expect, it } from 'vitest';
import { createMock } from '../../src/mock/index.js';
import { takeAnswerProblems } from '../support/mock-answers-setup.js';
import { answerProblem } from '../support/openapi-answers.js';

// The check every test's mock answers go through (test/support/mock-answers-setup.ts), proven able to fail.
const auth = { authorization: 'Bearer mock-token', 'content-type': 'application/json' };
const skill = {
  id: 1,
  name: 'n',
  description: '',
  instructions: 'i',
  icon: '',
  level: 'personal',
  visibility: 'public',
  workspace_id: null,
  is_active: true,
  created_at: '2026-01-01T00:00:00Z',
};
const ok = (data: unknown) => ({
  status: 'success',
  message: 'OK',
  message_code: 'api_v1_ok',
  data,
  meta: { request_id: crypto.randomUUID() },
});
const json = 'application/json; charset=utf-8';

describe('answers checked against openapi.json', () => {
  it('2.1: a skill that fits passes; one without its id, an undocumented status or type is named', () => {
    expect(answerProblem('GET', '/api/v1/skills/1', 200, json, ok(skill))).toBeUndefined();
    const { id: _, ...noId } = skill;
    expect(answerProblem('GET', '/api/v1/skills/1', 200, json, ok(noId))).toMatch(
      /^GET \/api\/v1\/skills\/1 -> 200: .*id/,
    );
    expect(answerProblem('GET', '/api/v1/skills/1', 409, json, {})).toMatch(/status not documented/);
    expect(answerProblem('GET', '/api/v1/skills/1', 200, 'text/html', '<p>')).toMatch(
      /content type text\/html not documented/,
    );
  });

  it('2.1: meta.request_id is a uuid, meta.page of a list at least 1', () => {
    const list = { ...ok([]), meta: { request_id: crypto.randomUUID(), page: 0, size: 50, total: 0 } };
    expect(answerProblem('GET', '/api/v1/chats', 200, json, list)).toMatch(/page/);
    const meta = { ...ok(skill), meta: { request_id: 'r1' } };
    expect(answerProblem('GET', '/api/v1/skills/1', 200, json, meta)).toMatch(/request_id/);
  });

  it('7.3: the sync send’s 502 takes a model’s own code with the turn’s ids; 7.5 codes stay closed', () => {
    const ids = { chat_id: crypto.randomUUID(), message_id: 3 };
    const failure = (code: string, data: unknown) => ({
      status: 'error',
      message: code,
      message_code: code,
      data,
    });
    const send = `/api/v1/chats/${ids.chat_id}/messages`;
    expect(answerProblem('POST', send, 502, json, failure('model_overloaded', ids))).toBeUndefined();
    expect(answerProblem('POST', send, 502, json, failure('model_overloaded', null))).toMatch(/data/);
    const answer = `/api/v1/chats/${ids.chat_id}/actions/approve-tool`;
    expect(answerProblem('POST', answer, 409, json, failure('model_overloaded', null))).toMatch(
      /message_code/,
    );
  });

  it('every answer of the in-process mock is checked: a stored skill the document refuses is reported', async () => {
    const mock = createMock();
    const created = await mock.fetch('/api/v1/skills', {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ name: 'n', instructions: 'i' }),
    });
    const { data } = (await created.json()) as { data: { id: number } };
    expect(takeAnswerProblems()).toEqual([]);
    // A record no route would write, set through the store behind the public view (`skills()` gives
    // copies): the answer built from it breaks the document.
    const store = mock.store as unknown as { skillsById: ReadonlyMap<number, object> };
    Object.assign(store.skillsById.get(data.id)!, { is_active: 'yes' });
    await mock.fetch(`/api/v1/skills/${data.id}`, { headers: auth });
    expect(takeAnswerProblems()).toEqual([
      expect.stringMatching(/^GET \/api\/v1\/skills\/\d+ -> 200: .*is_active/),
    ]);
  });

  it('an answer a fault shaped is exempt; the same answer without the fault is reported', async () => {
    const mock = createMock();
    const teapot = { status: 418, code: 'teapot' };
    mock.faults.add({ route: /^\/api\/v1\/skills\/1$/, respond: teapot });
    const faulted = await mock.fetch('/api/v1/skills/1', { headers: auth });
    expect(faulted.status).toBe(418);
    expect(takeAnswerProblems()).toEqual([]);
    expect(answerProblem('GET', '/api/v1/skills/1', 418, json, await faulted.json())).toMatch(
      /status not documented/,
    );
  });

  it('6: every event of a streamed turn fits the stream’s schema (a failover, an error)', async () => {
    const mock = createMock();
    const chat = `/api/v1/chats/${crypto.randomUUID()}/messages/stream`;
    const names: string[] = [];
    for (const content of ['hello [[mock:failover]]', 'hi [[mock:error code=upstream_error]]']) {
      const response = await mock.fetch(chat, {
        method: 'POST',
        headers: { ...auth, accept: 'text/event-stream', 'idempotency-key': crypto.randomUUID() },
        body: JSON.stringify({ content }),
      });
      const type = response.headers.get('content-type');
      const events: unknown[] = [];
      createParser({ onEvent: (e) => events.push({ event: e.event, data: JSON.parse(e.data) }) }).feed(
        await response.text(),
      );
      for (const event of events) {
        expect(answerProblem('POST', chat, response.status, type, event)).toBeUndefined();
        names.push((event as { event: string }).event);
      }
    }
    expect(names).toEqual(
      expect.arrayContaining(['message.start', 'message.delta', 'message.completed', 'message.error']),
    );
    const delta = (text: unknown) => ({ event: 'message.delta', data: { text, replace: false } });
    expect(answerProblem('POST', chat, 200, 'text/event-stream', delta('a'))).toBeUndefined();
    expect(answerProblem('POST', chat, 200, 'text/event-stream', delta(1))).toBeDefined();
  });

  it('2.6, 4.5, 6: each kind of message.action_required the mock raises fits, and so does each answer', async () => {
    const mock = createMock();
    const chat = `/api/v1/chats/${crypto.randomUUID()}`;
    const content =
      '[[mock:tool_approval]] [[mock:plan_approval]] [[mock:elicitation]] [[mock:auth_required]]';
    const response = await mock.fetch(`${chat}/messages/stream`, {
      method: 'POST',
      headers: { ...auth, accept: 'text/event-stream', 'idempotency-key': crypto.randomUUID() },
      body: JSON.stringify({ content, permission_mode: 'manual' }),
    });
    const type = response.headers.get('content-type');
    const events: Array<{ event: string; data: Record<string, unknown> }> = [];
    const parser = createParser({
      onEvent: (e) => events.push({ event: e.event!, data: JSON.parse(e.data) }),
    });
    const answers: Record<string, (actionId: string, payload: Record<string, unknown>) => [string, unknown]> =
      {
        tool_approval: (action_id, payload) => [
          'approve-tool',
          {
            action_id,
            decisions: (payload.tools as Array<{ tool_use_id: string }>).map(({ tool_use_id }) => ({
              tool_use_id,
              approved: true,
            })),
          },
        ],
        plan_approval: (action_id) => ['respond-plan', { action_id, action: 'approve' }],
        elicitation: (action_id) => [
          'respond-elicitation',
          { action_id, action: 'accept', content: { email: 'a@b.c' } },
        ],
        auth_required: (action_id) => ['cancel-auth', { action_id }],
      };
    const decoder = new TextDecoder();
    const reader = response.body!.getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      const before = events.length;
      parser.feed(decoder.decode(read.value, { stream: true }));
      for (const { event, data } of events.slice(before)) {
        if (event !== 'message.action_required') continue;
        const [endpoint, body] = answers[data.kind as string]!(
          data.action_id as string,
          data.payload as never,
        );
        const answered = await mock.fetch(`${chat}/actions/${endpoint}`, {
          method: 'POST',
          headers: auth,
          body: JSON.stringify(body),
        });
        expect(answered.status, endpoint).toBe(200);
      }
    }
    for (const event of events)
      expect(answerProblem('POST', `${chat}/messages/stream`, 200, type, event)).toBeUndefined();
    const kinds = events.filter((e) => e.event === 'message.action_required').map((e) => e.data.kind);
    expect(kinds).toEqual(['tool_approval', 'plan_approval', 'elicitation', 'auth_required']);
    expect(events.at(-1)!.event).toBe('message.completed');
    expect(takeAnswerProblems()).toEqual([]);
  });
});
