import { describe, expect, it, vi } from 'vitest';
import {
  AnswerOutcomeUnknownError,
  Client,
  ConflictError,
  ConnectionError,
  InternalServerError,
  TimeoutError,
} from '../../src/index.js';
import { createMock } from '../../src/mock/index.js';
import { fail, fakeFetch, ok } from '../support/fake-fetch.js';
import { nextInteraction } from '../support/interaction-stream.js';

// 7.5: 409 `api_v1_action_not_pending` means "already resolved, another request claimed it first, or
// outcome unknown". After a send of the SDK's own got no response, that 409 cannot tell whether the send
// applied: the SDK never reports a success it does not know of.

const CHAT = '3f2b1c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';
const body = { action_id: 'act_1', decisions: [{ tool_use_id: 'toolu_1', approved: true }] };
const notPending = () =>
  fail(409, 'api_v1_action_not_pending', null, { headers: { 'x-request-id': 'resend-1' } });

function client(fetch: typeof globalThis.fetch, warn = vi.fn()) {
  return new Client({
    baseUrl: 'https://a.test',
    token: 't',
    fetch,
    retryDelay: { min: 1, max: 2 },
    logger: { warn },
  });
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (value) => {
      throw new Error(`expected a rejection, got ${JSON.stringify(value)}`);
    },
    (error: unknown) => error,
  );
}

describe('7.5 an answer whose resend finds the interaction no longer pending', () => {
  it('7.5 a 409 api_v1_action_not_pending to a first send is thrown as it came: 1 request', async () => {
    const { fetch, requests } = fakeFetch(notPending());
    const warn = vi.fn();
    const error = await failure(client(fetch, warn).actions.approveTool(CHAT, body));
    expect(error).toBeInstanceOf(ConflictError);
    expect(error).not.toBeInstanceOf(AnswerOutcomeUnknownError);
    expect((error as ConflictError).name).toBe('ConflictError');
    expect((error as ConflictError).code).toBe('api_v1_action_not_pending');
    expect(requests).toHaveLength(1);
    expect(warn).not.toHaveBeenCalled();
  });

  it.each([
    ['a lost connection', () => new TypeError('fetch failed'), ConnectionError],
    ['a gateway bare 502', () => new Response('Bad Gateway', { status: 502 }), InternalServerError],
  ])(
    '7.5 after %s, the resend 409 is an AnswerOutcomeUnknownError, never { state: resolved }',
    async (_, first, lostAs) => {
      const { fetch, requests } = fakeFetch(first(), notPending());
      const warn = vi.fn();
      const error = await failure(client(fetch, warn).actions.approveTool(CHAT, body));
      expect(error).toBeInstanceOf(AnswerOutcomeUnknownError);
      const unknown = error as AnswerOutcomeUnknownError;
      // Still the 409 it is: code, status and the resend's response.
      expect(unknown).toBeInstanceOf(ConflictError);
      expect([unknown.name, unknown.status, unknown.code]).toEqual([
        'AnswerOutcomeUnknownError',
        409,
        'api_v1_action_not_pending',
      ]);
      expect(unknown.requestId).toBe('00000000-0000-4000-8000-000000000001');
      expect(unknown.headers.get('x-request-id')).toBe('resend-1');
      expect(unknown.cause).toBeInstanceOf(lostAs);
      expect(unknown.message).toMatch(/outcome of this answer is unknown.*read its stream to the end/);
      expect(requests).toHaveLength(2);
      expect(warn).toHaveBeenCalledWith('the outcome of an answer is unknown: its send was lost', {
        path: `chats/${CHAT}/actions/approve-tool`,
      });
    },
  );

  it('7.5 after a send that timed out, the resend 409 is an AnswerOutcomeUnknownError caused by the timeout', async () => {
    let n = 0;
    const { fetch } = fakeFetch((_request, signal) => {
      if (++n > 1) return notPending();
      return new Promise<Response>((_resolve, reject) => {
        signal.addEventListener('abort', () => reject(signal.reason), { once: true });
      });
    });
    const error = await failure(
      client(fetch).actions.respondPlan(CHAT, { action_id: 'a', action: 'approve' }, { timeout: 50 }),
    );
    expect(error).toBeInstanceOf(AnswerOutcomeUnknownError);
    expect((error as Error).cause).toBeInstanceOf(TimeoutError);
  });

  it('7.5 after a 503 whose decision never left (retry_action retry), the resend 409 is thrown as it came', async () => {
    const neverLeft = fail(503, 'api_v1_service_unavailable', null, {
      error_details: { retry_action: 'retry' },
    });
    const { fetch, requests } = fakeFetch(neverLeft, notPending());
    const error = await failure(client(fetch).actions.approveTool(CHAT, body));
    expect(error).toBeInstanceOf(ConflictError);
    expect(error).not.toBeInstanceOf(AnswerOutcomeUnknownError);
    expect(requests).toHaveLength(2);
  });

  it('7.5 the cause is the first lost send: lost, lost, then 409', async () => {
    const { fetch, requests } = fakeFetch(new TypeError('first'), new TypeError('second'), notPending());
    const error = await failure(client(fetch).actions.approveTool(CHAT, body));
    expect(error).toBeInstanceOf(AnswerOutcomeUnknownError);
    expect(((error as Error).cause as Error).message).toMatch(/first/);
    expect(requests).toHaveLength(3);
  });

  it('7.5 with a logger that has no warn, the unknown outcome is still an AnswerOutcomeUnknownError', async () => {
    const { fetch } = fakeFetch(new TypeError('fetch failed'), notPending());
    const quiet = new Client({
      baseUrl: 'https://a.test',
      token: 't',
      fetch,
      retryDelay: { min: 1, max: 2 },
      logger: { debug: () => {} },
    });
    expect(await failure(quiet.actions.approveTool(CHAT, body))).toBeInstanceOf(AnswerOutcomeUnknownError);
  });

  it('7.5 a lost send whose resend succeeds resolves as the service says', async () => {
    const { fetch } = fakeFetch(new TypeError('fetch failed'), ok({ action_id: 'act_1', state: 'resolved' }));
    expect(await client(fetch).actions.approveTool(CHAT, body)).toEqual({
      action_id: 'act_1',
      state: 'resolved',
    });
  });
});

/** A client of an in-process mock whose fetch can be wrapped, and a streamed turn paused on a tool approval. */
async function pausedOnTool(
  wrap: (fetch: typeof globalThis.fetch, c: () => Client) => typeof globalThis.fetch,
) {
  const mock = createMock();
  let made: Client | undefined;
  const fetch = wrap(
    (input, init) => mock.fetch(new Request(input, init)),
    () => made!,
  );
  made = new Client({ baseUrl: mock.url, token: 'mock-token', fetch, retryDelay: { min: 1, max: 2 } });
  const chat = await made.chats.create({});
  return { mock, client: made, chatId: chat.id };
}

const isAnswer = (input: Request | URL | string) =>
  new URL(input instanceof Request ? input.url : input).pathname.endsWith('/actions/approve-tool');

describe('7.5, 3.3 the turn is cancelled while the answer is lost (in-process mock)', () => {
  it('7.5 send lost before it arrived, turn cancelled meanwhile: AnswerOutcomeUnknownError; the stream ends cancelled, no tool ran', async () => {
    let dropped = 0;
    const { mock, client, chatId } = await pausedOnTool((fetch, c) => async (input, init) => {
      if (isAnswer(input) && dropped++ === 0) {
        await c().turns.cancel(chatId);
        throw new TypeError('fetch failed');
      }
      return fetch(input, init);
    });
    const { interaction, rest } = await nextInteraction(
      client.turns.stream(chatId, { content: 'q [[mock:tool_approval]]' }),
    );
    const error = await failure(interaction.approveAll());
    expect(error).toBeInstanceOf(AnswerOutcomeUnknownError);
    const types = await rest();
    expect(types.at(-1)).toBe('cancelled');
    expect(types).not.toContain('step');
    expect(mock.store.interactions()[0]).not.toMatchObject({ state: 'pending' });
  });

  it("7.5 the mock's drop fault (the answer applied, its response lost), then a cancel before the resend: AnswerOutcomeUnknownError", async () => {
    let answers = 0;
    const { mock, client, chatId } = await pausedOnTool((fetch, c) => async (input, init) => {
      if (!isAnswer(input) || answers++ > 0) return fetch(input, init);
      try {
        return await fetch(input, init);
      } finally {
        await c().turns.cancel(chatId);
      }
    });
    // The applied answer lets the turn go on, slowly enough (500 ms a delta) for the cancel to land first.
    mock.faults.add({ route: 'answer', drop: 'before-response' });
    const { interaction, rest } = await nextInteraction(
      client.turns.stream(chatId, { content: 'q [[mock:tool_approval]] [[mock:slow ms=500]]' }),
    );
    expect(await failure(interaction.approveAll())).toBeInstanceOf(AnswerOutcomeUnknownError);
    expect((await rest()).at(-1)).toBe('cancelled');
    expect(answers).toBe(2);
  });

  it('7.5 turns.run follows the stream after an AnswerOutcomeUnknownError: it resolves with the cancelled turn, sending no cancel of its own', async () => {
    let dropped = 0;
    const cancels: string[] = [];
    const { client, chatId } = await pausedOnTool((fetch, c) => async (input, init) => {
      const url = input instanceof Request ? input.url : String(input);
      if (url.endsWith('/actions/cancel')) cancels.push(url);
      if (isAnswer(input) && dropped++ === 0) {
        await c().turns.cancel(chatId);
        throw new TypeError('fetch failed');
      }
      return fetch(input, init);
    });
    const turn = await client.turns.run(
      chatId,
      { content: 'q [[mock:tool_approval]]' },
      { onToolApproval: () => true },
    );
    expect(turn.status).toBe('cancelled');
    expect(cancels).toHaveLength(1); // the one of the scenario; run sent none
  });
});
