import { describe, expect, it, vi } from 'vitest';
import { StreamInterruptedError, TurnError, UnreadableTerminalError } from '../../src/index.js';
import { collect } from '../support/collect.js';
import { cpuTimeOf } from '../support/cpu-time.js';
import { fakeClient } from '../support/fake-client.js';
import { type FakeFetch, fakeFetch } from '../support/fake-fetch.js';
import { CHAT, finished, sseResponse, sseText, turnEvents, type WireEvent } from '../support/sse.js';
import { deltaPairs } from '../support/turn-wire.js';

function client(fetch: FakeFetch, extra: { warn?: () => void; maxRetries?: number } = {}) {
  return fakeClient(fetch, {
    retryDelay: { min: 1, max: 5 },
    ...(extra.maxRetries === undefined ? {} : { maxRetries: extra.maxRetries }),
    ...(extra.warn ? { logger: { warn: extra.warn } } : {}),
  });
}

const START: WireEvent = ['message.start', { chat_id: CHAT, message_id: 7, request_id: 'req-1' }];
const step = (key: string, label = key) => ({
  key,
  label,
  label_code: key,
  status: 'done',
  timestamp: '2026-01-01T00:00:00.000Z',
});

describe('stream robustness', () => {
  it('6 two genuine steps with the same key, start and status are both shown; a replay shows neither again', async () => {
    const twins: WireEvent[] = [
      START,
      ['message.step', { steps: [step('a', 'one')] }],
      ['message.step', { steps: [step('a', 'two')] }],
    ];
    const replay: WireEvent[] = [
      START,
      ['message.step', { steps: [step('a', 'one'), step('a', 'two'), step('b')] }],
      ['message.completed', finished('')],
    ];
    const { fetch, requests } = fakeFetch(sseResponse(sseText(twins)), sseResponse(sseText(replay)));
    const events = await collect(client(fetch).turns.stream(CHAT, { content: 'x' }));
    const shown = events.flatMap((e) => (e.type === 'step' ? e.steps.map((s) => s.label) : []));
    expect(shown).toEqual(['one', 'two', 'b']);
    expect(requests).toHaveLength(2);
  });

  it('4.4 folding after a resume is linear: 200,000 one-character deltas replayed after 100,000 shown', async () => {
    const shownText = 'a'.repeat(100_000);
    const first: WireEvent[] = [START, ['message.delta', { text: shownText, replace: false }]];
    const replayDeltas = Array.from({ length: 200_000 }, () => 'a');
    const replay = sseText(turnEvents(replayDeltas));
    const { fetch } = fakeFetch(sseResponse(sseText(first)), sseResponse(replay));
    const stream = client(fetch).turns.stream(CHAT, { content: 'x' });
    // CPU time, which other work on the machine does not inflate: quadratic folding takes over 90 s of
    // wall time here on a loaded machine; linear about 0.2 s of CPU.
    const { result: events, ms } = await cpuTimeOf(() => collect(stream));
    expect(ms).toBeLessThan(5_000);
    expect(stream.text).toHaveLength(200_000);
    // Nothing is shown twice: after the first 100,000, the replay's second half arrives one by one.
    const after = deltaPairs(events).slice(1);
    expect(after).toHaveLength(100_000);
    expect(after.every(([text, replace]) => text === 'a' && !replace)).toBe(true);
  });

  it('6 a replace that shortens the text right after a resumed stream caught up is shown at once', async () => {
    const first: WireEvent[] = [START, ['message.delta', { text: 'Hello world', replace: false }]];
    const replay: WireEvent[] = [
      START,
      ['message.delta', { text: 'Hello ', replace: false }],
      ['message.delta', { text: 'world', replace: false }],
      ['message.delta', { text: 'Hi', replace: true }],
      ['message.delta', { text: '!', replace: false }],
      ['message.completed', finished('Hi!')],
    ];
    const { fetch } = fakeFetch(sseResponse(sseText(first)), sseResponse(sseText(replay)));
    const events = await collect(client(fetch).turns.stream(CHAT, { content: 'x' }));
    expect(events.map((e) => e.type)).toEqual(['start', 'delta', 'resumed', 'delta', 'delta', 'completed']);
    expect(deltaPairs(events)).toEqual([
      ['Hello world', false],
      ['Hi', true],
      ['!', false],
    ]);
  });

  it('6 deltas written with a space after each colon and comma (json.dumps) are read by the fast path', async () => {
    const text =
      'event: message.start\ndata: {"chat_id": "' +
      CHAT +
      '", "message_id": 7, "request_id": "r"}\n\n' +
      'event: message.delta\ndata: {"text": "Hel", "replace": false}\n\n' +
      'event: message.delta\ndata: {"text": "lo", "replace": false}\n\n' +
      `event: message.completed\ndata: ${JSON.stringify(finished('Hello'))}\n\n`;
    const { fetch } = fakeFetch(sseResponse(text));
    const events = await collect(client(fetch).turns.stream(CHAT, { content: 'x' }));
    expect(deltaPairs(events)).toEqual([
      ['Hel', false],
      ['lo', false],
    ]);
  });

  it('6 `data: null` and a payload with leading junk are passed on as off_schema, logged, never re-sent', async () => {
    const warn = vi.fn();
    const text =
      sseText([START]) +
      'event: message.delta\ndata: null\n\n' +
      'event: message.delta\ndata: x{"text":"a","replace":false}\n\n' +
      sseText([
        ['message.delta', { text: 'ok', replace: false }],
        ['message.completed', finished('ok')],
      ]);
    const { fetch, requests } = fakeFetch(sseResponse(text));
    const events = await collect(client(fetch, { warn }).turns.stream(CHAT, { content: 'x' }));
    expect(events.filter((e) => e.type === 'off_schema')).toEqual([
      { type: 'off_schema', event: 'message.delta', data: null, problem: expect.any(String) },
      {
        type: 'off_schema',
        event: 'message.delta',
        data: 'x{"text":"a","replace":false}',
        problem: 'data is not JSON',
      },
    ]);
    expect(deltaPairs(events)).toEqual([['ok', false]]);
    expect(warn).toHaveBeenCalledWith(
      'an event does not match the contract; passed on as off_schema',
      expect.objectContaining({ event: 'message.delta' }),
    );
    expect(requests).toHaveLength(1);
  });

  it('6, 9 a known event off the contract degrades to off_schema with its raw payload, never a resume loop', async () => {
    const wire: WireEvent[] = [START, ['message.step', { steps: 'soon' }], ...turnEvents(['a']).slice(1)];
    const { fetch, requests } = fakeFetch(sseResponse(sseText(wire)));
    const stream = client(fetch).turns.stream(CHAT, { content: 'x' });
    const events = await collect(stream);
    expect(events.find((e) => e.type === 'off_schema')).toMatchObject({
      event: 'message.step',
      data: { steps: 'soon' },
      problem: expect.stringContaining('steps'),
    });
    expect(stream.text).toBe('a');
    expect(requests).toHaveLength(1);
  });

  it('6 a terminal event that cannot be read ends the stream once with a typed error carrying the key, no re-POST', async () => {
    const wire: WireEvent[] = [
      START,
      ['message.delta', { text: 'a', replace: false }],
      ['message.completed', { id: 'x' }],
    ];
    const { fetch, requests } = fakeFetch(sseResponse(sseText(wire)));
    const stream = client(fetch).turns.stream(CHAT, { content: 'x' });
    const error = (await stream.finalTurn().catch((e: unknown) => e)) as UnreadableTerminalError;
    expect(error).toBeInstanceOf(UnreadableTerminalError);
    expect([error.event, error.idempotencyKey, error.chatId, error.messageId]).toEqual([
      'message.completed',
      stream.idempotencyKey,
      CHAT,
      7,
    ]);
    expect(requests).toHaveLength(1);
  });

  it('4.4 a data line that never ends (past 16 MiB) is a typed break recovered through the key', async () => {
    const endless = `${sseText([START])}event: message.delta\ndata: ${'a'.repeat(16 * 1024 * 1024 + 10)}`;
    const { fetch, requests } = fakeFetch(sseResponse(endless), sseResponse(sseText(turnEvents(['ok']))));
    const stream = client(fetch).turns.stream(CHAT, { content: 'x' });
    const events = await collect(stream);
    expect(events.find((e) => e.type === 'resumed')).toMatchObject({
      reason: expect.stringContaining('grew past'),
    });
    expect(stream.text).toBe('ok');
    expect(requests.map((r) => r.headers.get('idempotency-key'))).toEqual([
      stream.idempotencyKey,
      stream.idempotencyKey,
    ]);
  });

  it('4.4 when a never-ending line exhausts the resumes, the error is a StreamInterruptedError with the key', async () => {
    const endless = `${sseText([START])}data: ${'a'.repeat(16 * 1024 * 1024 + 10)}`;
    const { fetch } = fakeFetch(sseResponse(endless));
    const stream = client(fetch).turns.stream(CHAT, { content: 'x' }, { maxResumes: 0 });
    const error = (await stream.finalTurn().catch((e: unknown) => e)) as StreamInterruptedError;
    expect(error).toBeInstanceOf(StreamInterruptedError);
    expect(error.idempotencyKey).toBe(stream.idempotencyKey);
    expect(error.message).toMatch(/grew past/);
  });

  it('6 the watchdog counts events: comments trickled faster than idleTimeout do not keep a dead stream open', async () => {
    const encoder = new TextEncoder();
    let timer: ReturnType<typeof setInterval> | undefined;
    const trickle = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode(sseText([START])));
        timer = setInterval(() => controller.enqueue(encoder.encode(': keep-alive junk\n')), 5);
      },
      cancel() {
        clearInterval(timer);
      },
    });
    const dead = new Response(trickle, { headers: { 'content-type': 'text/event-stream' } });
    const { fetch, requests } = fakeFetch(dead, sseResponse(sseText(turnEvents(['ok']))));
    const stream = client(fetch).turns.stream(CHAT, { content: 'x' }, { idleTimeout: 60 });
    const events = await collect(stream);
    clearInterval(timer);
    expect(events.find((e) => e.type === 'resumed')).toMatchObject({ reason: 'no event for 60 ms' });
    expect(stream.text).toBe('ok');
    expect(requests).toHaveLength(2);
  });

  it.each(['idempotency_outcome_unknown', 'persistence_failed'])(
    '6 message.error %s on the stream reads the stored outcome again with the same key',
    async (code) => {
      const failed: WireEvent[] = [START, ['message.error', { code, message: 'check', retryable: false }]];
      const { fetch, requests } = fakeFetch(
        sseResponse(sseText(failed)),
        sseResponse(sseText(turnEvents(['done']))),
      );
      const stream = client(fetch).turns.stream(CHAT, { content: 'x' });
      expect(await stream.finalText()).toBe('done');
      expect(requests.map((r) => r.headers.get('idempotency-key'))).toEqual([
        stream.idempotencyKey,
        stream.idempotencyKey,
      ]);
    },
  );

  it('6 a stored outcome that stays idempotency_outcome_unknown ends in TurnError after maxRetries re-reads', async () => {
    const failed: WireEvent[] = [
      START,
      ['message.error', { code: 'idempotency_outcome_unknown', message: 'check', retryable: false }],
    ];
    const { fetch, requests } = fakeFetch(sseResponse(sseText(failed)));
    const stream = client(fetch, { maxRetries: 1 }).turns.stream(CHAT, { content: 'x' });
    const error = (await stream.finalTurn().catch((e: unknown) => e)) as TurnError;
    expect(error).toBeInstanceOf(TurnError);
    expect([error.code, error.idempotencyKey]).toEqual([
      'idempotency_outcome_unknown',
      stream.idempotencyKey,
    ]);
    expect(requests).toHaveLength(2);
  });
});
