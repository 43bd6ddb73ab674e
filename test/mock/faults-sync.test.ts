import { beforeEach, describe, expect, it } from 'vitest';
import { type ConvoMock, createMock } from '../../src/mock/index.js';
import { auto, call, errorDataOf, outcome, parseReply, send, turnOf } from './helpers.js';

let mock: ConvoMock;
let chatId: string;
beforeEach(() => {
  mock = createMock();
  chatId = crypto.randomUUID();
});

function sendRequest(key: string, body: unknown = auto('hi')): Request {
  return new Request(`${mock.url}/api/v1/chats/${chatId}/messages`, {
    method: 'POST',
    headers: {
      authorization: 'Bearer mock-token',
      'idempotency-key': key,
      'content-type': 'application/json',
    },
    body: JSON.stringify(body),
  });
}

describe('faults on purpose: the synchronous send', () => {
  it('drop before-response: the turn runs and is stored, but handle() answers Response.error()', async () => {
    mock.faults.add({ route: 'send', drop: 'before-response' });
    const response = await mock.handle(sendRequest('k'));
    expect(response.type).toBe('error');
    expect(mock.runs('k')).toBe(1);
    expect(mock.store.turns()[0]?.status).toBe('completed');
    // 4.3: the retry with the same key reads the stored outcome.
    const replay = turnOf(await send(mock, chatId, auto('hi'), { key: 'k' }));
    expect(replay.content).toBe('Mock answer: hi');
    expect(mock.runs('k')).toBe(1);
  });

  it('drop before-response: mock.fetch rejects with TypeError("fetch failed"), like a network error', async () => {
    mock.faults.add({ route: 'send', drop: 'before-response' });
    await expect(mock.fetch(sendRequest('k'))).rejects.toThrow(new TypeError('fetch failed'));
    expect(mock.runs('k')).toBe(1);
  });

  it('respond with afterRun: the turn runs and is stored, the answer is the error; the same key then replays it', async () => {
    mock.faults.add({
      route: 'send',
      respond: {
        status: 503,
        code: 'api_v1_core_unavailable',
        data: { code: 'persistence_failed' },
        afterRun: true,
      },
    });
    const reply = await send(mock, chatId, auto('hi'), { key: 'k' });
    expect(outcome(reply)).toEqual([503, 'api_v1_core_unavailable']);
    expect(errorDataOf(reply)).toEqual({ code: 'persistence_failed' });
    expect(turnOf(await send(mock, chatId, auto('hi'), { key: 'k' })).status).toBe('completed');
    expect(mock.runs('k')).toBe(1);
  });

  it('respond without afterRun: nothing runs, the key stays free', async () => {
    mock.faults.add({
      route: 'send',
      respond: {
        status: 409,
        code: 'api_v1_core_unavailable',
        data: { code: 'idempotency_outcome_unknown' },
        errorDetails: { retry_action: 'check_status' },
      },
    });
    const reply = await send(mock, chatId, auto('hi'), { key: 'k' });
    expect([...outcome(reply), reply.body.data, reply.body.meta.error_details]).toEqual([
      409,
      'api_v1_core_unavailable',
      { code: 'idempotency_outcome_unknown' },
      { retry_action: 'check_status' },
    ]);
    expect(mock.runs('k')).toBe(0);
    expect(turnOf(await send(mock, chatId, auto('hi'), { key: 'k' })).status).toBe('completed');
  });

  it('7.3: a respond fault without the data its code requires is refused when added, not sent', () => {
    expect(() =>
      mock.faults.add({ route: 'send', respond: { status: 502, code: 'upstream_error' } }),
    ).toThrow(/mock fault: upstream_error needs the data the contract gives it: data/);
    expect(() =>
      mock.faults.add({ route: 'stream', respond: { status: 409, code: 'api_v1_chat_busy', data: {} } }),
    ).toThrow(/api_v1_chat_busy needs the data the contract gives it: data\.message_id/);
    expect(mock.faults.list()).toEqual([]);
  });

  it('a fault hits only its route, `times` requests, then is gone', async () => {
    mock.faults.add({ route: 'stream', respond: { status: 500, code: 'x' } });
    const data = { chat_id: chatId, message_id: 1 };
    mock.faults.add({ route: 'send', times: 2, respond: { status: 502, code: 'upstream_error', data } });
    expect(mock.faults.list()).toHaveLength(2);
    expect(outcome(await send(mock, chatId, auto('a')))).toEqual([502, 'upstream_error']);
    expect(mock.faults.list()[1]).toMatchObject({ route: 'send', times: 1 });
    expect(outcome(await send(mock, chatId, auto('a')))).toEqual([502, 'upstream_error']);
    expect(turnOf(await send(mock, chatId, auto('a'))).status).toBe('completed');
    expect(mock.faults.list()).toEqual([expect.objectContaining({ route: 'stream' })]);
    mock.faults.clear();
    expect(mock.faults.list()).toEqual([]);
  });

  it('inProgress: N: the next N replays of a finished key answer 409 api_v1_turn_in_progress, then the outcome', async () => {
    await send(mock, chatId, auto('hi'), { key: 'k' });
    mock.faults.add({ route: 'send', inProgress: 2 });
    expect(outcome(await send(mock, chatId, auto('hi'), { key: 'k' }))).toEqual([
      409,
      'api_v1_turn_in_progress',
    ]);
    expect(outcome(await send(mock, chatId, auto('hi'), { key: 'k' }))).toEqual([
      409,
      'api_v1_turn_in_progress',
    ]);
    expect(turnOf(await send(mock, chatId, auto('hi'), { key: 'k' })).status).toBe('completed');
    expect(mock.runs('k')).toBe(1);
  });

  it('a RegExp route hits any path it matches: respond before the handler, drop after it', async () => {
    mock.faults.add({
      route: /^\/api\/v1\/chats$/,
      respond: { status: 503, code: 'api_v1_service_unavailable' },
    });
    expect(outcome(await call(mock, 'GET', '/api/v1/chats'))).toEqual([503, 'api_v1_service_unavailable']);
    expect((await call(mock, 'GET', '/api/v1/chats')).status).toBe(200);
    mock.faults.add({ route: /\/chats$/, drop: 'before-response' });
    const dropped = await mock.handle(
      new Request(`${mock.url}/api/v1/chats`, {
        method: 'POST',
        headers: { authorization: 'Bearer mock-token' },
      }),
    );
    expect(dropped.type).toBe('error');
    expect(mock.store.chats()).toHaveLength(1);
  });

  it('a RegExp on a send path is served by the send’s own fault points', async () => {
    mock.faults.add({ route: /\/messages$/, drop: 'before-response' });
    expect((await mock.handle(sendRequest('k'))).type).toBe('error');
    expect(mock.runs('k')).toBe(1);
  });

  it('a fault needs exactly one action and a positive count', () => {
    expect(() => mock.faults.add({ route: 'send' } as never)).toThrow(/exactly one/);
    expect(() => mock.faults.add({ route: 'send', drop: 'before-response', inProgress: 1 } as never)).toThrow(
      /exactly one/,
    );
    expect(() => mock.faults.add({ route: 'send', drop: 'before-response', times: 0 })).toThrow(/positive/);
  });

  it('reset() clears faults with the rest', async () => {
    mock.faults.add({ route: 'send', drop: 'before-response' });
    mock.reset();
    expect(mock.faults.list()).toEqual([]);
    expect((await parseReply(await mock.handle(sendRequest('k')))).status).toBe(200);
  });
});
