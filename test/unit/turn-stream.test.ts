import { describe, expect, it, vi } from 'vitest';
import {
  AbortError,
  ApiError,
  RelayedTurnStream,
  StreamInterruptedError,
  TurnError,
} from '../../src/index.js';
import { collect } from '../support/collect.js';
import { fakeClient } from '../support/fake-client.js';
import { type FakeFetch, fail, fakeFetch } from '../support/fake-fetch.js';
import { CHAT, finished, sseResponse, sseText, turnEvents, type WireEvent } from '../support/sse.js';
import { deltaPairs } from '../support/turn-wire.js';

function client(fetch: FakeFetch) {
  return fakeClient(fetch, { retryDelay: { min: 1, max: 5 } });
}

describe('turns.stream', () => {
  it('4.4 posts to messages/stream with Accept text/event-stream, an Idempotency-Key and manual by default', async () => {
    const { fetch, requests } = fakeFetch(sseResponse(sseText(turnEvents(['Hi']))));
    const stream = client(fetch).turns.stream(CHAT, { content: 'Hello' });
    await stream.finalTurn();
    expect(requests[0]?.url).toBe(`https://api.test/api/v1/chats/${CHAT}/messages/stream`);
    expect(requests[0]?.headers.get('accept')).toBe('text/event-stream');
    expect(requests[0]?.headers.get('idempotency-key')).toBe(stream.idempotencyKey);
    expect(requests[0]?.body).toEqual({ content: 'Hello' });
  });

  it('6 yields typed events in order and ends after the terminal event', async () => {
    const { fetch } = fakeFetch(sseResponse(sseText(turnEvents(['Hel', 'lo']))));
    const events = await collect(client(fetch).turns.stream(CHAT, { content: 'x' }));
    expect(events.map((e) => e.type)).toEqual(['start', 'delta', 'delta', 'completed']);
    expect(events[0]).toEqual({ type: 'start', chat_id: CHAT, message_id: 7, request_id: 'req-1' });
    expect(events[2]).toEqual({ type: 'delta', text: 'lo', replace: false, snapshot: 'Hello' });
  });

  it('6 replace: true discards what was accumulated', async () => {
    const { fetch } = fakeFetch(sseResponse(sseText(turnEvents(['Hel', 'lo', ['Bonjour', true], '!']))));
    const stream = client(fetch).turns.stream(CHAT, { content: 'x' });
    const events = await collect(stream);
    expect(events.filter((e) => e.type === 'delta').map((e) => (e as { snapshot: string }).snapshot)).toEqual(
      ['Hel', 'Hello', 'Bonjour', 'Bonjour!'],
    );
    expect(stream.text).toBe('Bonjour!');
  });

  it('6 the terminal content is authoritative: a fold that differs gets one corrective delta', async () => {
    const { fetch } = fakeFetch(sseResponse(sseText(turnEvents(['Hel', 'lo'], 'Hello world'))));
    const stream = client(fetch).turns.stream(CHAT, { content: 'x' });
    const events = await collect(stream);
    expect(deltaPairs(events)).toEqual([
      ['Hel', false],
      ['lo', false],
      [' world', false],
    ]);
    const { fetch: other } = fakeFetch(sseResponse(sseText(turnEvents(['Hel', 'lo'], 'Goodbye'))));
    expect(deltaPairs(await collect(client(other).turns.stream(CHAT, { content: 'x' }))).at(-1)).toEqual([
      'Goodbye',
      true,
    ]);
  });

  it('6 rule 1: anything after the terminal event is dropped, and logged', async () => {
    const events: WireEvent[] = [...turnEvents(['a']), ['message.delta', { text: 'late', replace: false }]];
    const { fetch } = fakeFetch(sseResponse(sseText(events)));
    const warn = vi.fn();
    const c = fakeClient(fetch, { logger: { warn } });
    const seen = await collect(c.turns.stream(CHAT, { content: 'x' }));
    expect(seen.at(-1)?.type).toBe('completed');
    expect(seen.some((e) => e.type === 'delta' && e.text === 'late')).toBe(false);
    expect(warn).toHaveBeenCalledWith('dropped an event after the terminal event', {
      event: 'message.delta',
    });
  });

  it('9 an unknown event name passes through as an unknown event', async () => {
    const events = turnEvents(['a']);
    events.splice(1, 0, ['message.thinking', { depth: 2 }]);
    const { fetch } = fakeFetch(sseResponse(sseText(events)));
    const seen = await collect(client(fetch).turns.stream(CHAT, { content: 'x' }));
    expect(seen[1]).toEqual({ type: 'unknown', event: 'message.thinking', data: { depth: 2 } });
  });

  it('6 pings are hidden unless asked for', async () => {
    const events = turnEvents(['a']);
    events.splice(1, 0, ['ping', { ts: 1.5 }]);
    const { fetch } = fakeFetch(sseResponse(sseText(events)));
    expect(
      (await collect(client(fetch).turns.stream(CHAT, { content: 'x' }))).map((e) => e.type),
    ).not.toContain('ping');
    const { fetch: again } = fakeFetch(sseResponse(sseText(events)));
    const seen = await collect(client(again).turns.stream(CHAT, { content: 'x' }, { pings: true }));
    expect(seen[1]).toEqual({ type: 'ping', ts: 1.5 });
  });

  it('6 message.error -> an error event; finalTurn rejects with TurnError carrying code, key and message id', async () => {
    const events: WireEvent[] = [
      ['message.start', { chat_id: CHAT, message_id: 9, request_id: 'r' }],
      [
        'message.error',
        {
          code: 'upstream_error',
          message: 'boom',
          retryable: false,
          details: { retry_action: 'check_status' },
        },
      ],
    ];
    const { fetch } = fakeFetch(sseResponse(sseText(events)));
    const stream = client(fetch).turns.stream(CHAT, { content: 'x' });
    const error = (await stream.finalTurn().catch((e: unknown) => e)) as TurnError;
    expect(error).toBeInstanceOf(TurnError);
    expect([error.code, error.retryable, error.messageId, error.chatId]).toEqual([
      'upstream_error',
      false,
      9,
      CHAT,
    ]);
    expect(error.idempotencyKey).toBe(stream.idempotencyKey);
    expect(error.details?.retry_action).toBe('check_status');
  });

  it('finalTurn returns the completed turn with status completed; cancelled likewise', async () => {
    const { fetch } = fakeFetch(sseResponse(sseText(turnEvents(['Hi']))));
    expect(await client(fetch).turns.stream(CHAT, { content: 'x' }).finalTurn()).toMatchObject({
      status: 'completed',
      content: 'Hi',
    });
    const cancelled: WireEvent[] = [
      ['message.start', { chat_id: CHAT, message_id: 7, request_id: 'r' }],
      ['message.cancelled', finished('')],
    ];
    const { fetch: other } = fakeFetch(sseResponse(sseText(cancelled)));
    expect(await client(other).turns.stream(CHAT, { content: 'x' }).finalTurn()).toMatchObject({
      status: 'cancelled',
      content: '',
    });
  });

  it('7.4 an error before the stream starts is thrown as a typed error when the stream is first read', async () => {
    const { fetch } = fakeFetch(fail(409, 'api_v1_chat_busy', { message_id: 3 }));
    const stream = client(fetch).turns.stream(CHAT, { content: 'x' });
    const error = (await stream.finalTurn().catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.code).toBe('api_v1_chat_busy');
    expect(error.idempotencyKey).toBe(stream.idempotencyKey);
  });

  it('on() callbacks see the text, the start and the end, driven by finalTurn', async () => {
    const { fetch } = fakeFetch(sseResponse(sseText(turnEvents(['a', 'b']))));
    const texts: string[] = [];
    const ends: string[] = [];
    const stream = client(fetch)
      .turns.stream(CHAT, { content: 'x' })
      .on('text', (delta, snapshot) => texts.push(`${delta}|${snapshot}`))
      .on('end', (event) => ends.push(event.type));
    await stream.finalTurn();
    expect(texts).toEqual(['a|a', 'b|ab']);
    expect(ends).toEqual(['completed']);
    expect(stream.messageId).toBe(7);
  });

  it('a stream can be iterated once; tee() gives two readers of every event', async () => {
    const { fetch } = fakeFetch(sseResponse(sseText(turnEvents(['a', 'b']))));
    const stream = client(fetch).turns.stream(CHAT, { content: 'x' });
    const [left, right] = stream.tee();
    expect(() => stream[Symbol.asyncIterator]()).toThrow(/once/);
    const [a, b] = await Promise.all([collect(left), collect(right)]);
    expect(a).toEqual(b);
    expect(a.map((e) => e.type)).toEqual(['start', 'delta', 'delta', 'completed']);
    expect(await right.finalText()).toBe('ab');
  });

  it('toReadableStream -> fromReadableStream relays the same events and folds to the same text', async () => {
    const { fetch } = fakeFetch(sseResponse(sseText(turnEvents(['Hel', 'lo', ['Hi', true], ' there']))));
    const [direct, relayed] = client(fetch).turns.stream(CHAT, { content: 'x' }).tee();
    const browser = RelayedTurnStream.fromReadableStream(relayed.toReadableStream());
    const [expected, got] = await Promise.all([collect(direct), collect(browser)]);
    expect(got).toEqual(expected);
    expect(browser.text).toBe('Hi there');
  });
});

describe('turns.stream recovery', () => {
  it('6 a body that ends without a terminal event is re-opened with the same key; the text ends complete, once', async () => {
    const whole = turnEvents(['one ', 'two ', 'three'], 'one two three');
    const cut = sseResponse(sseText(whole.slice(0, 3)));
    const replay = sseResponse(
      sseText([whole[0]!, ['message.delta', { text: 'one two three', replace: false }], whole.at(-1)!]),
    );
    const { fetch, requests } = fakeFetch(cut, replay);
    const stream = client(fetch).turns.stream(CHAT, { content: 'x' });
    const events = await collect(stream);
    expect(requests.map((r) => r.headers.get('idempotency-key'))).toEqual([
      stream.idempotencyKey,
      stream.idempotencyKey,
    ]);
    expect(requests[1]?.body).toEqual(requests[0]?.body);
    expect(events.map((e) => e.type)).toEqual(['start', 'delta', 'delta', 'resumed', 'delta', 'completed']);
    expect(
      deltaPairs(events)
        .map(([t]) => t)
        .join(''),
    ).toBe('one two three');
    expect(stream.text).toBe('one two three');
  });

  it('a relay across a recovery folds to the same text in the browser, each character once', async () => {
    const whole = turnEvents(['one ', 'two ', 'three'], 'one two three');
    const { fetch } = fakeFetch(sseResponse(sseText(whole.slice(0, 3))), sseResponse(sseText(whole)));
    const [direct, relayed] = client(fetch).turns.stream(CHAT, { content: 'x' }).tee();
    const browser = RelayedTurnStream.fromReadableStream(relayed.toReadableStream());
    const [expected, got] = await Promise.all([collect(direct), collect(browser)]);
    expect(got).toEqual(expected);
    expect(
      deltaPairs(got)
        .map(([t]) => t)
        .join(''),
    ).toBe('one two three');
    expect(browser.text).toBe('one two three');
  });

  it('a read error mid-stream is recovered the same way', async () => {
    const whole = turnEvents(['a', 'b', 'c']);
    const { fetch } = fakeFetch(
      sseResponse(sseText(whole.slice(0, 2)), { end: 'error' }),
      sseResponse(sseText(whole)),
    );
    const events = await collect(client(fetch).turns.stream(CHAT, { content: 'x' }));
    expect(
      deltaPairs(events)
        .map(([t]) => t)
        .join(''),
    ).toBe('abc');
    expect(events.filter((e) => e.type === 'start')).toHaveLength(1);
  });

  it('a replay whose text diverged from what was shown corrects it with one replace', async () => {
    const { fetch } = fakeFetch(
      sseResponse(sseText(turnEvents(['draft']).slice(0, 2))),
      sseResponse(sseText(turnEvents(['final answer']))),
    );
    const events = await collect(client(fetch).turns.stream(CHAT, { content: 'x' }));
    expect(deltaPairs(events)).toEqual([
      ['draft', false],
      ['final answer', true],
    ]);
  });

  it('409 api_v1_turn_in_progress while re-opening means wait and try again', async () => {
    const whole = turnEvents(['a', 'b']);
    const busy = fail(409, 'api_v1_turn_in_progress');
    const { fetch, requests } = fakeFetch(
      sseResponse(sseText(whole.slice(0, 2))),
      busy,
      busy,
      sseResponse(sseText(whole)),
    );
    const stream = client(fetch).turns.stream(CHAT, { content: 'x' });
    expect(await stream.finalText()).toBe('ab');
    expect(requests).toHaveLength(4);
  });

  it('6 an event whose data is not JSON is passed on as off_schema, without re-sending the turn', async () => {
    const whole = turnEvents(['a', 'b']);
    const odd = `${sseText(whole.slice(0, 2))}event: message.delta\ndata: {not json\n\n${sseText(whole.slice(2))}`;
    const { fetch, requests } = fakeFetch(sseResponse(odd));
    const events = await collect(client(fetch).turns.stream(CHAT, { content: 'x' }));
    expect(events.find((e) => e.type === 'off_schema')).toMatchObject({
      event: 'message.delta',
      data: '{not json',
    });
    expect(requests).toHaveLength(1);
  });

  it('recovery gives up after maxResumes with StreamInterruptedError carrying the key and message id', async () => {
    const { fetch, requests } = fakeFetch(sseResponse(sseText(turnEvents(['a']).slice(0, 2))));
    const stream = client(fetch).turns.stream(CHAT, { content: 'x' }, { maxResumes: 2 });
    const error = (await stream.finalTurn().catch((e: unknown) => e)) as StreamInterruptedError;
    expect(error).toBeInstanceOf(StreamInterruptedError);
    expect([error.idempotencyKey, error.messageId, error.chatId, error.resumes]).toEqual([
      stream.idempotencyKey,
      7,
      CHAT,
      2,
    ]);
    expect(requests).toHaveLength(3);
  });

  it('8 the watchdog: no event for idleTimeout means a dead connection, recovered through the key', async () => {
    const whole = turnEvents(['a', 'b']);
    const { fetch, requests } = fakeFetch(
      sseResponse(sseText(whole.slice(0, 2)), { end: 'stall' }),
      sseResponse(sseText(whole)),
    );
    const stream = client(fetch).turns.stream(CHAT, { content: 'x' }, { idleTimeout: 30 });
    const events = await collect(stream);
    expect(events.find((e) => e.type === 'resumed')).toMatchObject({
      reason: expect.stringContaining('no event'),
    });
    expect(stream.text).toBe('ab');
    expect(requests).toHaveLength(2);
  });

  it('8 the watchdog with fake timers: silent for 44 s is alive, past the default 45 s it is dead', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      const whole = turnEvents(['a', 'b']);
      const { fetch, requests } = fakeFetch(
        sseResponse(sseText(whole.slice(0, 2)), { end: 'stall' }),
        sseResponse(sseText(whole)),
      );
      const c = fakeClient(fetch, { retryDelay: { min: 1, max: 1 } });
      const stream = c.turns.stream(CHAT, { content: 'x' });
      const done = collect(stream);
      await vi.advanceTimersByTimeAsync(44_000);
      expect(requests).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(1_100);
      const events = await done;
      expect(requests).toHaveLength(2);
      expect(events.find((e) => e.type === 'resumed')).toMatchObject({ reason: 'no event for 45000 ms' });
      expect(stream.text).toBe('ab');
    } finally {
      vi.useRealTimers();
    }
  });

  it('the watchdog does not fire while the consumer takes its time between events', async () => {
    // Fake time: the consumer's 60 ms pass exactly, and a busy machine's pause cannot fire the watchdog.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      const { fetch, requests } = fakeFetch(sseResponse(sseText(turnEvents(['a', 'b']))));
      const stream = client(fetch).turns.stream(CHAT, { content: 'x' }, { idleTimeout: 20 });
      for await (const event of stream) if (event.type === 'start') await vi.advanceTimersByTimeAsync(60);
      expect(stream.text).toBe('ab');
      expect(requests).toHaveLength(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('8 a stream read by hand and left after its terminal event keeps no watchdog timer alive', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      const { fetch } = fakeFetch(sseResponse(sseText(turnEvents(['a'])), { end: 'stall' }));
      const stream = client(fetch).turns.stream(CHAT, { content: 'x' });
      const iterator = stream[Symbol.asyncIterator]();
      for (let next = await iterator.next(); !next.done; next = await iterator.next())
        if (next.value.type === 'completed') break;
      await vi.advanceTimersByTimeAsync(45_000);
      expect(vi.getTimerCount()).toBe(0);
      await iterator.return?.();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('abort', () => {
  it("the caller's signal stops reading with AbortError and cancels the body", async () => {
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(sseText(turnEvents(['a']).slice(0, 2))));
      },
      cancel() {
        cancelled = true;
      },
    });
    const response = new Response(body, { headers: { 'content-type': 'text/event-stream' } });
    const { fetch } = fakeFetch(() => response);
    const controller = new AbortController();
    const stream = client(fetch).turns.stream(CHAT, { content: 'x' }, { signal: controller.signal });
    const seen: string[] = [];
    const done = (async () => {
      for await (const event of stream) {
        seen.push(event.type);
        if (event.type === 'delta') controller.abort();
      }
    })();
    await expect(done).rejects.toBeInstanceOf(AbortError);
    expect(seen).toEqual(['start', 'delta']);
    expect(cancelled).toBe(true);
  });

  it('stream.abort() does the same without a signal of your own', async () => {
    const { fetch } = fakeFetch(sseResponse(sseText(turnEvents(['a']).slice(0, 2)), { end: 'stall' }));
    const stream = client(fetch).turns.stream(CHAT, { content: 'x' });
    stream.on('text', () => stream.abort());
    await expect(stream.finalTurn()).rejects.toBeInstanceOf(AbortError);
  });
});
