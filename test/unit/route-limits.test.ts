import { afterEach, describe, expect, it, vi } from 'vitest';
import { boundStream, MAX_ROUTE_STREAM_MS, readJson } from '../../src/ai/route-limits.js';
import { ValidationError } from '../../src/index.js';

const encoder = new TextEncoder();

/** A byte source the test writes to, which records its cancel. */
function bytes() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const cancelled: unknown[] = [];
  const stream = new ReadableStream<Uint8Array>({
    start(own) {
      controller = own;
    },
    cancel(reason) {
      cancelled.push(reason);
    },
  });
  return {
    stream,
    write: (chunk: string | Uint8Array) =>
      controller.enqueue(typeof chunk === 'string' ? encoder.encode(chunk) : chunk),
    end: () => controller.close(),
    cancelled,
  };
}

/** A text source the test writes to, which records its cancel. */
function text() {
  let controller!: ReadableStreamDefaultController<string>;
  const cancelled: unknown[] = [];
  const stream = new ReadableStream<string>({
    start(own) {
      controller = own;
    },
    cancel(reason) {
      cancelled.push(reason);
    },
  });
  return {
    stream,
    write: (chunk: string) => controller.enqueue(chunk),
    end: () => controller.close(),
    fail: (error: unknown) => controller.error(error),
    cancelled,
  };
}

const post = (body: BodyInit | ReadableStream<Uint8Array>, headers: Record<string, string> = {}) =>
  new Request('http://route.test/api/chat', { method: 'POST', body, headers, duplex: 'half' } as RequestInit);

/** Lets queued microtasks run (not a duration). */
async function flush(): Promise<void> {
  for (let turn = 0; turn < 20; turn++) await Promise.resolve();
}

async function failure(promise: Promise<unknown>): Promise<ValidationError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ValidationError);
  return error as ValidationError;
}

async function all(stream: ReadableStream<string>): Promise<string[]> {
  const chunks: string[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

const errorChunk = (errorText: string) => `data: ${JSON.stringify({ type: 'error', errorText })}\n\n`;

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('readJson: a request body read within its bounds', () => {
  it('parses a body sent in several chunks, a character split between two', async () => {
    const source = bytes();
    const whole = encoder.encode('{"text":"café ☕","n":[1,2]}');
    const reading = readJson(post(source.stream), 1000, 1000);
    source.write(whole.slice(0, 5));
    source.write(whole.slice(5, 15));
    source.write(whole.slice(15));
    source.end();
    expect(await reading).toEqual({ text: 'café ☕', n: [1, 2] });
  });

  it('a body of exactly the limit is read; one byte more is a ValidationError naming body and the limit, and the body is cancelled', async () => {
    expect(await readJson(post('"12345678"'), 10, 1000)).toBe('12345678');
    const source = bytes();
    const reading = readJson(post(source.stream), 10, 1000);
    source.write('"1234');
    source.write('5678');
    source.write('9"');
    const error = await failure(reading);
    expect(error.field).toBe('body');
    expect(error.limit).toBe(10);
    expect(error.message).toBe('body: exceeds 10 bytes');
    expect(source.cancelled).toHaveLength(1);
  });

  it('a declared content-length past the limit is refused before anything is read; one at the limit is read', async () => {
    const source = bytes();
    const pulled = vi.fn();
    const stream = new ReadableStream<Uint8Array>({ pull: pulled }, { highWaterMark: 0 });
    const error = await failure(readJson(post(stream, { 'content-length': '11' }), 10, 1000));
    expect(error.message).toBe('body: exceeds 10 bytes');
    expect(error.limit).toBe(10);
    expect(pulled).not.toHaveBeenCalled();
    const reading = readJson(post(source.stream, { 'content-length': '10' }), 10, 1000);
    source.write('"12345678"');
    source.end();
    expect(await reading).toBe('12345678');
  });

  it('a body that is not JSON, or none at all, is a ValidationError: body must be JSON', async () => {
    const error = await failure(readJson(post('{"open": '), 100, 1000));
    expect(error.message).toBe('body: must be JSON');
    expect(error.field).toBe('body');
    expect(error.limit).toBeUndefined();
    const none = await failure(
      readJson(new Request('http://route.test/api/chat', { method: 'POST' }), 100, 1000),
    );
    expect(none.message).toBe('body: must be JSON');
  });

  it('a body not received within ms is a ValidationError naming the time, and its reading is cancelled', async () => {
    vi.useFakeTimers();
    const source = bytes();
    const reading = readJson(post(source.stream), 1000, 500);
    let outcome: unknown;
    reading.then(
      (value) => (outcome = value),
      (error: unknown) => (outcome = error),
    );
    source.write('{"a":');
    await vi.advanceTimersByTimeAsync(499);
    expect(outcome).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(outcome).toBeInstanceOf(ValidationError);
    expect((outcome as ValidationError).message).toBe('body: was not received within 500 ms');
    expect((outcome as ValidationError).limit).toBe(500);
    await flush();
    expect(source.cancelled).toHaveLength(1);
  });

  it('a body read in time leaves no timer behind', async () => {
    vi.useFakeTimers();
    expect(await readJson(post('{"a":1}'), 100, 500)).toEqual({ a: 1 });
    expect(vi.getTimerCount()).toBe(0);
    await failure(readJson(post('nope'), 100, 500));
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('boundStream: an answer passed on within its bounds', () => {
  it("by default an answer is read for longer than the service's 30 minutes a turn runs at most, not an hour", () => {
    expect(MAX_ROUTE_STREAM_MS).toBeGreaterThan(30 * 60 * 1000);
    expect(MAX_ROUTE_STREAM_MS).toBeLessThan(60 * 60 * 1000);
  });

  it('passes every chunk on and ends with its source, leaving no timer', async () => {
    vi.useFakeTimers();
    const source = text();
    const bound = boundStream(source.stream, { maxBytes: 100, maxMs: 1000 });
    source.write('one ');
    source.write('two');
    source.end();
    expect(await all(bound)).toEqual(['one ', 'two']);
    expect(vi.getTimerCount()).toBe(0);
    expect(source.cancelled).toEqual([]);
  });

  it('counts UTF-8 bytes: exactly maxBytes passes, a byte more ends on an error chunk naming the bound and stops the reading', async () => {
    vi.useFakeTimers();
    const source = text();
    const bound = boundStream(source.stream, { maxBytes: 6, maxMs: 1000 });
    // 'é' is two bytes in UTF-8 (one UTF-16 unit): 'aéé' is 5.
    source.write('aéé');
    source.write('b');
    source.write('c');
    source.write('never');
    expect(await all(bound)).toEqual([
      'aéé',
      'b',
      errorChunk('the answer passed maxStreamBytes (6 bytes): resume to read it'),
    ]);
    await flush();
    expect(source.cancelled).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('past maxMs ends on an error chunk naming the time and stops the reading; not a moment before', async () => {
    vi.useFakeTimers();
    const source = text();
    const bound = boundStream(source.stream, { maxBytes: 100, maxMs: 1000 });
    const reader = bound.getReader();
    source.write('early');
    expect(await reader.read()).toEqual({ done: false, value: 'early' });
    const next = reader.read();
    await vi.advanceTimersByTimeAsync(999);
    expect(source.cancelled).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(await next).toEqual({
      done: false,
      value: errorChunk('the answer was read for maxStreamMs (1000 ms): resume to read the rest'),
    });
    expect(await reader.read()).toEqual({ done: true, value: undefined });
    expect(source.cancelled).toHaveLength(1);
  });

  it('past maxMs while nobody reads, the error chunk waits for the reader and the stream then ends', async () => {
    vi.useFakeTimers();
    const source = text();
    const bound = boundStream(source.stream, { maxBytes: 100, maxMs: 50 });
    await vi.advanceTimersByTimeAsync(50);
    await flush();
    expect(await all(bound)).toEqual([
      errorChunk('the answer was read for maxStreamMs (50 ms): resume to read the rest'),
    ]);
    expect(source.cancelled).toHaveLength(1);
  });

  it('a chunk the source gives after maxMs is not passed on', async () => {
    vi.useFakeTimers();
    let controller!: ReadableStreamDefaultController<string>;
    let pulls = 0;
    const source = new ReadableStream<string>(
      {
        start(own) {
          controller = own;
        },
        pull() {
          pulls++;
        },
        // The source does not stop on cancel: what it already queued would still come.
        cancel() {},
      },
      { highWaterMark: 0 },
    );
    const bound = boundStream(source, { maxBytes: 100, maxMs: 50 });
    await flush();
    expect(pulls).toBeGreaterThan(0);
    await vi.advanceTimersByTimeAsync(50);
    expect(() => controller.enqueue('late')).toThrow();
    expect(await all(bound)).toEqual([
      errorChunk('the answer was read for maxStreamMs (50 ms): resume to read the rest'),
    ]);
  });

  it('a source that fails fails the stream with its error, leaving no timer', async () => {
    vi.useFakeTimers();
    const source = text();
    const bound = boundStream(source.stream, { maxBytes: 100, maxMs: 1000 });
    source.write('one');
    source.fail(new Error('broken'));
    await expect(all(bound)).rejects.toThrow('broken');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a cancel of the stream cancels its source with the reason, leaving no timer', async () => {
    vi.useFakeTimers();
    const source = text();
    const bound = boundStream(source.stream, { maxBytes: 100, maxMs: 1000 });
    await bound.cancel('page closed');
    expect(source.cancelled).toEqual(['page closed']);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("its time bound's timer does not keep a Node process alive", async () => {
    const timeouts = vi.spyOn(globalThis, 'setTimeout');
    const source = text();
    const bound = boundStream(source.stream, { maxBytes: 100, maxMs: 60_000 });
    const timer = timeouts.mock.results.at(-1)?.value as NodeJS.Timeout;
    expect(timer.hasRef()).toBe(false);
    await bound.cancel();
  });
});
