import { afterEach, describe, expect, it, vi } from 'vitest';
import { Transport } from '../../src/http/transport.js';
import { AnswerOutcomeUnknownError, Client, type RetryInfo, type StreamEvent } from '../../src/index.js';
import { fakeClient } from '../support/fake-client.js';
import { completedTurn, fail, fakeFetch, ok, skill } from '../support/fake-fetch.js';
import { CHAT, sseResponse, sseText, turnEvents, type WireEvent } from '../support/sse.js';

// Every exchange that may repeat goes through the transport's one entry (`request`, or `open` for a
// stream): it reads the call's retry settings once, and the policy table decides each repeat.

const START: WireEvent = ['message.start', { chat_id: CHAT, message_id: 7, request_id: 'req-1' }];
const turn = completedTurn(CHAT);

function setup(...replies: Parameters<typeof fakeFetch>) {
  const faked = fakeFetch(...replies);
  const retries: RetryInfo[] = [];
  const client = fakeClient(faked.fetch, {
    retryDelay: { min: 1, max: 2 },
    onRetry: (info) => retries.push(info),
  });
  const settings = vi.spyOn(Transport.prototype, 'retrySettings');
  return { ...faked, client, retries, settings };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the one retry entry of the transport', () => {
  it('a JSON call repeated after a lost connection reads its settings once', async () => {
    const { client, requests, settings, retries } = setup(new TypeError('fetch failed'), ok(skill()));
    await client.skills.get(1);
    expect(requests).toHaveLength(2);
    expect(settings).toHaveBeenCalledTimes(1);
    expect(retries.map((r) => r.attempt)).toEqual([1]);
  });

  it('7.3 a synchronous send polled while its key runs reads its settings once, with its own timeout', async () => {
    const { client, requests, settings, retries } = setup(
      fail(409, 'api_v1_turn_in_progress'),
      fail(409, 'api_v1_turn_in_progress'),
      ok(turn),
    );
    const sent = await client.turns.send(CHAT, { content: 'Hi' }, { maxRetries: 0 });
    expect(sent.content).toBe('Hello.');
    expect(requests).toHaveLength(3);
    expect(settings).toHaveBeenCalledTimes(1);
    expect(settings.mock.calls[0]![0]).toMatchObject({ maxRetries: 0, timeout: 31 * 60_000 });
    expect(retries.map((r) => r.attempt)).toEqual([1, 2]);
  });

  it('7.5 an answer applies its keyed-call rule through the entry: lost, then 409, is an unknown outcome', async () => {
    const { client, requests, settings } = setup(
      new TypeError('fetch failed'),
      fail(409, 'api_v1_action_not_pending'),
    );
    const body = { action_id: 'a', decisions: [{ tool_use_id: 't', approved: true }] };
    const error = await client.actions.approveTool(CHAT, body).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AnswerOutcomeUnknownError);
    expect(requests).toHaveLength(2);
    expect(settings).toHaveBeenCalledTimes(1);
  });

  it('a cancel is no answer: its 409 after a lost send is thrown as it came', async () => {
    const { client } = setup(new TypeError('fetch failed'), fail(409, 'api_v1_action_not_pending'));
    const error = await client.turns.cancel(CHAT).catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(AnswerOutcomeUnknownError);
  });

  it('4.4 a stream reads its settings once, for its re-reads and every open (the first, the re-open)', async () => {
    const { client, requests, settings } = setup(
      sseResponse(sseText([START])),
      sseResponse(sseText(turnEvents(['hi']))),
    );
    const events: StreamEvent<unknown>[] = [];
    for await (const event of client.turns.stream(CHAT, { content: 'x' })) events.push(event);
    expect(events.some((e) => e.type === 'resumed')).toBe(true);
    expect(requests).toHaveLength(2);
    expect(settings).toHaveBeenCalledTimes(1);
  });

  it("7.5 an answer is not resent when the wait would end past its deadline (the interaction's)", async () => {
    const body = { action_id: 'a', decisions: [{ tool_use_id: 't', approved: true }] };
    const answer = (until?: number) => {
      const { fetch, requests } = fakeFetch(
        new TypeError('fetch failed'),
        ok({ action_id: 'a', state: 'resolved' }),
      );
      const client = new Client({
        baseUrl: 'https://api.test',
        token: 't',
        fetch,
        retryDelay: { min: 500, max: 500 },
      });
      const sent = client.actions.answer(CHAT, 'tool_approval', body, undefined, until);
      return sent.then(
        () => requests.length,
        () => -requests.length,
      );
    };
    // The deadline falls inside the 500 ms wait, with room for a busy machine's first attempt before it.
    expect(await answer(Date.now() + 200)).toBe(-1);
    expect(await answer()).toBe(2);
  });

  it('4.4 a re-open waits the backoff of its resume before it is sent', async () => {
    const at: number[] = [];
    const { fetch } = fakeFetch(sseResponse(sseText([START])), sseResponse(sseText(turnEvents(['hi']))));
    const client = new Client({
      baseUrl: 'https://api.test',
      token: 't',
      fetch: (input, init) => {
        at.push(performance.now());
        return fetch(input, init);
      },
      retryDelay: { min: 150, max: 150 },
    });
    for await (const _ of client.turns.stream(CHAT, { content: 'x' })) {
      // read to the end
    }
    expect(at).toHaveLength(2);
    expect(at[1]! - at[0]!).toBeGreaterThanOrEqual(140);
  });
});
