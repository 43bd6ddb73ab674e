import { describe, expect, it, vi } from 'vitest';
import { AbortError, StreamInterruptedError, type TerminalEvent } from '../../src/index.js';
import { fakeClient } from '../support/fake-client.js';
import { type FakeFetch, fakeFetch, ok } from '../support/fake-fetch.js';
import { mockClient } from '../support/mock-client.js';
import { CHAT, sseResponse, sseText, turnEvents } from '../support/sse.js';

function client(fetch: FakeFetch) {
  return fakeClient(fetch, { retryDelay: { min: 1, max: 5 } });
}

const cancelled = (request: Request) => request.url.endsWith('/actions/cancel');

describe('the handler loop', () => {
  it('6 run: onText tells a replace from an append, and the handler of docs/streaming.md prints the saved answer through [[mock:failover]]', async () => {
    const { client: c } = mockClient();
    const chat = await c.chats.create({});
    let out = '';
    const write = (text: string) => {
      out += text;
    };
    const replaces: boolean[] = [];
    const turn = await c.turns.run(
      chat.id,
      { content: '[[mock:failover]] tell me' },
      {
        // The handler of docs/streaming.md: a replace starts a new line with the whole new text.
        onText: (delta, _snapshot, replace) => {
          replaces.push(replace);
          write(replace ? `\n${delta}` : delta);
        },
      },
    );
    expect(replaces).toContain(true);
    expect(replaces.filter((r) => !r).length).toBeGreaterThan(1);
    expect(out.split('\n').at(-1)).toBe(turn.content);
  });
});

describe('cancel', () => {
  it('4.6 stream.cancel() before the turn started is sent once it starts, once however many calls', async () => {
    const requests: string[] = [];
    const fetch = async (input: Request | URL | string, init?: RequestInit) => {
      const request = new Request(input, init);
      requests.push(new URL(request.url).pathname);
      if (cancelled(request)) return ok({ chat_id: CHAT, cancelled: true });
      return sseResponse(sseText(turnEvents(['a'])));
    };
    const stream = client(fetch).turns.stream(CHAT, { content: 'x' });
    const result = stream.cancel();
    const again = stream.cancel();
    expect(requests).toEqual([]);
    await stream.done();
    expect(await result).toEqual({ chat_id: CHAT, cancelled: true });
    expect(await again).toEqual({ chat_id: CHAT, cancelled: true });
    expect(requests.filter((p) => p.endsWith('/actions/cancel'))).toHaveLength(1);
    expect(requests[0]).toMatch(/messages\/stream$/);
  });

  it('4.6 a cancel() waiting for a turn that never started resolves cancelled: false when the stream ends', async () => {
    const { fetch } = fakeFetch(sseResponse('', {}));
    const stream = client(fetch).turns.stream(CHAT, { content: 'x' }, { maxResumes: 0 });
    const result = stream.cancel();
    await expect(stream.done()).rejects.toBeInstanceOf(StreamInterruptedError);
    expect(await result).toEqual({ chat_id: CHAT, cancelled: false });
  });

  it('4.6 cancelOnAbort: aborting after the turn was sent also cancels it at the service', async () => {
    const requests: string[] = [];
    const fetch = async (input: Request | URL | string, init?: RequestInit) => {
      const request = new Request(input, init);
      requests.push(new URL(request.url).pathname);
      if (cancelled(request)) return ok({ chat_id: CHAT, cancelled: true });
      return sseResponse(sseText(turnEvents(['a']).slice(0, 2)), { end: 'stall' });
    };
    const controller = new AbortController();
    const stream = client(fetch).turns.stream(
      CHAT,
      { content: 'x' },
      { signal: controller.signal, cancelOnAbort: true },
    );
    stream.on('text', () => controller.abort());
    await expect(stream.finalTurn()).rejects.toBeInstanceOf(AbortError);
    // A hang guard of 10 s, not vitest's 1 s: the cancel is sent after the abort, whatever the machine's load.
    await vi.waitFor(() => expect(requests.filter((p) => p.endsWith('/actions/cancel'))).toHaveLength(1), {
      timeout: 10_000,
    });
  });

  it('4.6 without cancelOnAbort an abort only stops reading: nothing is cancelled', async () => {
    const { fetch, requests } = fakeFetch(
      sseResponse(sseText(turnEvents(['a']).slice(0, 2)), { end: 'stall' }),
    );
    const controller = new AbortController();
    const stream = client(fetch).turns.stream(CHAT, { content: 'x' }, { signal: controller.signal });
    stream.on('text', () => controller.abort());
    await expect(stream.finalTurn()).rejects.toBeInstanceOf(AbortError);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(requests.map((r) => r.url).filter((u) => u.endsWith('/actions/cancel'))).toEqual([]);
  });
});

describe('TurnStream end, error and done()', () => {
  it('6 done() resolves with the terminal event; `end` is emitted with it', async () => {
    const { fetch } = fakeFetch(sseResponse(sseText(turnEvents(['a', 'b']))));
    const stream = client(fetch).turns.stream(CHAT, { content: 'x' });
    const ends: TerminalEvent[] = [];
    stream.on('end', (event) => ends.push(event));
    const end = await stream.done();
    expect(end.type).toBe('completed');
    expect(ends).toEqual([end]);
  });

  it('6 a message.error is an outcome for done() and `end`, a TurnError for finalTurn()', async () => {
    const wire = sseText([
      ['message.start', { chat_id: CHAT, message_id: 7, request_id: 'r' }],
      ['message.error', { code: 'upstream_error', message: 'x', retryable: false }],
    ]);
    const { fetch } = fakeFetch(sseResponse(wire));
    const stream = client(fetch).turns.stream(CHAT, { content: 'x' });
    const end = await stream.done();
    expect(end).toMatchObject({ type: 'error', error: { code: 'upstream_error' } });
    await expect(stream.finalTurn()).rejects.toMatchObject({ name: 'TurnError', messageId: 7, chatId: CHAT });
  });

  it('4.4 `error` is emitted with the error the reader gets, stamped with the key', async () => {
    const { fetch } = fakeFetch(sseResponse(sseText(turnEvents(['a']).slice(0, 2))));
    const stream = client(fetch).turns.stream(CHAT, { content: 'x' }, { maxResumes: 0 });
    const errors: unknown[] = [];
    stream.on('error', (error) => errors.push(error));
    const error = await stream.done().catch((e: unknown) => e);
    expect(errors).toEqual([error]);
    expect(error).toMatchObject({ idempotencyKey: stream.idempotencyKey, chatId: CHAT, messageId: 7 });
  });
});
