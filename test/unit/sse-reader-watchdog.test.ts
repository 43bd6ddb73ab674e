import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { StreamBreak } from '../../src/errors/index.js';
import { AbortError, ConnectionError, TurnTooLargeError } from '../../src/index.js';
import { type RawEvent, readEvents } from '../../src/stream/sse.js';

// The SSE reader (`src/stream/sse.ts`), driven directly on a fake clock: the events of each chunk, the idle
// watchdog (which counts only while waiting for an event), the body's bound, the abort and the read's end.

const encoder = new TextEncoder();

/** A body the test writes to, which records why it was cancelled. */
function body(onSignal?: (controller: ReadableStreamDefaultController<Uint8Array>) => void) {
  let control!: ReadableStreamDefaultController<Uint8Array>;
  const cancelled: unknown[] = [];
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      control = controller;
      onSignal?.(controller);
    },
    cancel(reason) {
      cancelled.push(reason);
    },
  });
  return {
    stream,
    cancelled,
    write: (text: string) => control.enqueue(encoder.encode(text)),
    enqueue: (bytes: Uint8Array) => control.enqueue(bytes),
    end: () => control.close(),
    fail: (error: unknown) => control.error(error),
  };
}

/** Lets pending promise callbacks run without moving the fake clock. */
const settled = () => vi.advanceTimersByTimeAsync(0);

/** The outcome of `promise` once settled, without an unhandled rejection. */
function outcome<T>(promise: Promise<T>) {
  const seen: { value?: T; error?: unknown; done: boolean } = { done: false };
  promise.then(
    (value) => Object.assign(seen, { value, done: true }),
    (error: unknown) => Object.assign(seen, { error, done: true }),
  );
  return seen;
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the SSE reader', () => {
  it("yields the events of each chunk together, naming an unnamed one 'message'; a chunk without a whole event yields nothing", async () => {
    const source = body();
    const events = readEvents(source.stream, { idleMs: 1000, maxBytes: 1000 });
    source.write('event: a\ndata: 1\n\ndata: 2\n\nda');
    source.write('ta: 3\n');
    source.write('foo: bar\n\n');
    source.end();
    const batches: RawEvent[][] = [];
    for await (const batch of events) batches.push(batch);
    expect(batches.map((batch) => batch.map(({ event, data }) => ({ event, data })))).toEqual([
      [
        { event: 'a', data: '1' },
        { event: 'message', data: '2' },
      ],
      [{ event: 'message', data: '3' }],
    ]);
    expect(source.cancelled).toEqual([]);
  });

  it('an event cut across chunks, with whole events after it in the same chunk, reads as sent (LF and CRLF)', async () => {
    const source = body();
    const events = readEvents(source.stream, { idleMs: 1000, maxBytes: 1000 });
    source.write('event: a\ndata: 1\n\nevent: b\nda');
    // The rest of the cut line, then whole events in the same chunk.
    source.write('ta: 2\n\ndata: 3\n\nevent: c\r');
    source.write('\ndata: 4\r\n\r\ndata: 5\n\n');
    source.end();
    const batches: RawEvent[][] = [];
    for await (const batch of events) batches.push(batch);
    expect(batches.map((batch) => batch.map(({ event, data }) => `${event}:${data}`))).toEqual([
      ['a:1'],
      ['b:2', 'message:3'],
      ['c:4', 'message:5'],
    ]);
  });

  it('a chunk whose events map to nothing (pings a caller does not see) restarts the idle clock all the same', async () => {
    const source = body();
    const events = readEvents(source.stream, { idleMs: 1000, maxBytes: 1000 }, () => false);
    const next = outcome(events.next());
    await vi.advanceTimersByTimeAsync(600);
    source.write('event: ping\ndata: {}\n\n');
    await vi.advanceTimersByTimeAsync(999);
    expect(next.done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(next.error).toBeInstanceOf(StreamBreak);
  });

  it('decodes a character whose bytes are split across two chunks', async () => {
    const source = body();
    // "data: " is 6 bytes; "é" the two after it.
    const bytes = encoder.encode('data: é\n\n');
    source.enqueue(bytes.slice(0, 7));
    source.enqueue(bytes.slice(7));
    source.end();
    const data: string[] = [];
    for await (const batch of readEvents(source.stream, { idleMs: 1000, maxBytes: 1000 })) {
      data.push(...batch.map((event) => event.data));
    }
    expect(data).toEqual(['é']);
  });

  it('6 no event for idleMs while waiting is a StreamBreak naming the wait, and the body is cancelled', async () => {
    const source = body();
    const next = outcome(readEvents(source.stream, { idleMs: 1000, maxBytes: 1000 }).next());
    await vi.advanceTimersByTimeAsync(999);
    expect(next.done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(next.error).toBeInstanceOf(StreamBreak);
    expect((next.error as Error).message).toBe('no event for 1000 ms');
    expect(source.cancelled).toEqual([new Error('stalled')]);
  });

  it('6 the idle clock restarts at each event: silence after an event breaks idleMs after it, not before', async () => {
    const source = body();
    const events = readEvents(source.stream, { idleMs: 1000, maxBytes: 1000 });
    await settled();
    await vi.advanceTimersByTimeAsync(600);
    source.write('data: 1\n\n');
    expect((await events.next()).value).toHaveLength(1);
    const next = outcome(events.next());
    // The first timer fires at 1000 (400 after the event): early, it re-arms for the 600 left.
    await vi.advanceTimersByTimeAsync(999);
    expect(next.done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(next.error).toBeInstanceOf(StreamBreak);
  });

  it('6 a consumer that holds a batch longer than idleMs is not a dead connection, and no timer runs meanwhile', async () => {
    const source = body();
    const events = readEvents(source.stream, { idleMs: 1000, maxBytes: 1000 });
    source.write('data: 1\n\n');
    expect((await events.next()).value).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(5000);
    expect(vi.getTimerCount()).toBe(0);
    // Reading again arms the watchdog anew: an event soon after is read, then silence breaks.
    const next = outcome(events.next());
    await vi.advanceTimersByTimeAsync(500);
    source.write('data: 2\n\n');
    await settled();
    expect(next.value).toEqual({ done: false, value: [expect.objectContaining({ data: '2' })] });
    const last = outcome(events.next());
    await vi.advanceTimersByTimeAsync(999);
    expect(last.done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(last.error).toBeInstanceOf(StreamBreak);
  });

  it('a body read to its end leaves no timer and is not cancelled', async () => {
    const source = body();
    const events = readEvents(source.stream, { idleMs: 1000, maxBytes: 1000 });
    source.write('data: 1\n\n');
    source.end();
    const batches: RawEvent[][] = [];
    for await (const batch of events) batches.push(batch);
    expect(batches).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(0);
    expect(source.cancelled).toEqual([]);
    // The body is released: its owner may read or cancel it again.
    expect(source.stream.locked).toBe(false);
  });

  it('a consumer that stops reading early cancels the body, saying so, and leaves no timer', async () => {
    const source = body();
    source.write('data: 1\n\n');
    for await (const batch of readEvents(source.stream, { idleMs: 1000, maxBytes: 1000 })) {
      expect(batch).toHaveLength(1);
      break;
    }
    expect(source.cancelled).toEqual([new Error('stopped reading')]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a body that passes maxBytes is a TurnTooLargeError; one of exactly maxBytes is read whole', async () => {
    const exact = body();
    exact.write('data: 12\n\n');
    exact.end();
    const read: RawEvent[][] = [];
    for await (const batch of readEvents(exact.stream, { idleMs: 1000, maxBytes: 10 })) read.push(batch);
    expect(read).toHaveLength(1);
    const over = body();
    over.write('data: 123\n\n');
    await expect(readEvents(over.stream, { idleMs: 1000, maxBytes: 10 }).next()).rejects.toBeInstanceOf(
      TurnTooLargeError,
    );
  });

  it('a read that fails is a ConnectionError that gives its reason', async () => {
    const source = body();
    source.fail(new Error('reset by peer'));
    const error = await readEvents(source.stream, { idleMs: 1000, maxBytes: 1000 })
      .next()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toBe('the stream broke: reset by peer');
    expect((error as Error).cause).toEqual(new Error('reset by peer'));
    const other = body();
    other.fail('gone');
    await expect(readEvents(other.stream, { idleMs: 1000, maxBytes: 1000 }).next()).rejects.toThrow(
      'the stream broke: gone',
    );
  });

  it('an already aborted signal is an AbortError before anything is read', async () => {
    const source = body();
    const reason = new Error('user left');
    const next = outcome(
      readEvents(source.stream, { idleMs: 1000, maxBytes: 1000, signal: AbortSignal.abort(reason) }).next(),
    );
    await settled();
    expect(next.error).toBeInstanceOf(AbortError);
    expect((next.error as Error).cause).toBe(reason);
  });

  it('aborting while a read waits cancels the body with the reason and is an AbortError', async () => {
    const source = body();
    const controller = new AbortController();
    const next = outcome(
      readEvents(source.stream, { idleMs: 1000, maxBytes: 1000, signal: controller.signal }).next(),
    );
    await settled();
    const reason = new Error('user left');
    controller.abort(reason);
    await settled();
    expect(next.error).toBeInstanceOf(AbortError);
    expect((next.error as Error).cause).toBe(reason);
    expect(source.cancelled).toEqual([reason]);
  });

  it('aborting, when the body itself errors on the abort (as a fetch body does), is still an AbortError', async () => {
    const controller = new AbortController();
    const source = body((stream) => {
      controller.signal.addEventListener('abort', () => stream.error(new Error('body aborted')));
    });
    const next = outcome(
      readEvents(source.stream, { idleMs: 1000, maxBytes: 1000, signal: controller.signal }).next(),
    );
    await settled();
    controller.abort(new Error('user left'));
    await settled();
    expect(next.error).toBeInstanceOf(AbortError);
  });
});
