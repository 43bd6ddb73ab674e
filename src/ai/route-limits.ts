import { ValidationError } from '../index.js';

/** The largest request body the route reads by default: the whole conversation a page posts. */
export const MAX_ROUTE_BODY_BYTES = 4 * 1024 * 1024;
/** How long a route reads a request body at most by default. */
export const MAX_ROUTE_BODY_MS = 10_000;
/** The most a route buffers of one answer by default (what a resume replays from its start). */
export const MAX_ROUTE_STREAM_BYTES = 16 * 1024 * 1024;
/** How long a route reads one answer at most by default: past the service's 30 minutes a turn. */
export const MAX_ROUTE_STREAM_MS = 31 * 60 * 1000;

/** How long a stop waits at most for the cancelled turn's answer to end before it answers. */
export const MAX_STOP_WAIT_MS = 10_000;

const tooLarge = (limit: number) =>
  new ValidationError([{ field: 'body', message: `exceeds ${limit} bytes`, limit }]);

/**
 * The request's JSON body, read up to `limit` bytes and for `ms` milliseconds at most (a `ValidationError`
 * naming `body` beyond either, or when it is not JSON).
 */
export async function readJson(request: Request, limit: number, ms: number): Promise<unknown> {
  // No header is `Number(null)`: 0.
  const declared = Number(request.headers.get('content-length'));
  if (declared > limit) throw tooLarge(limit);
  // No body at all reads as an empty one, which is not JSON.
  if (!request.body) return parse(new Uint8Array());
  const reader = request.body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      void reader.cancel().catch(() => {});
      reject(
        new ValidationError([{ field: 'body', message: `was not received within ${ms} ms`, limit: ms }]),
      );
    }, ms);
  });
  try {
    return parse(await Promise.race([readAll(), late]));
  } finally {
    clearTimeout(timer);
  }

  async function readAll(): Promise<Uint8Array> {
    for (;;) {
      const next = await reader.read();
      if (next.done) break;
      size += next.value.byteLength;
      if (size > limit) {
        await reader.cancel();
        throw tooLarge(limit);
      }
      parts.push(next.value);
    }
    const bytes = new Uint8Array(size);
    let at = 0;
    for (const part of parts) {
      bytes.set(part, at);
      at += part.byteLength;
    }
    return bytes;
  }
}

function parse(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw new ValidationError([{ field: 'body', message: 'must be JSON' }]);
  }
}

/** Bounds of one answer's stream. */
export interface StreamBounds {
  /** Bytes passed on at most. */
  maxBytes: number;
  /** Milliseconds read at most. */
  maxMs: number;
}

/**
 * `source` passed on until it ends or crosses a bound; then its reading stops (the turn runs on, and a
 * resume reads it again by its key) and the stream ends with an AI SDK `error` chunk naming the bound.
 */
export function boundStream(source: ReadableStream<string>, bounds: StreamBounds): ReadableStream<string> {
  const reader = source.getReader();
  const encoder = new TextEncoder();
  let size = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stop = (controller: ReadableStreamDefaultController<string>, text: string) => {
    clearTimeout(timer);
    controller.enqueue(`data: ${JSON.stringify({ type: 'error', errorText: text })}\n\n`);
    controller.close();
    void reader.cancel().catch(() => {});
  };
  let over = false;
  return new ReadableStream<string>({
    start(controller) {
      timer = setTimeout(() => {
        over = true;
        stop(controller, `the answer was read for maxStreamMs (${bounds.maxMs} ms): resume to read the rest`);
      }, bounds.maxMs);
      // A bound's timer does not keep a Node process alive (where timers are numbers, there is no `unref`).
      // Stryker disable next-line OptionalChaining: Node's timers, the only ones the tests run on, have `unref`
      (timer as { unref?: () => void }).unref?.();
    },
    async pull(controller) {
      const next = await reader.read().catch((error: unknown) => {
        clearTimeout(timer);
        throw error;
      });
      if (over) return;
      if (next.done) {
        clearTimeout(timer);
        controller.close();
        return;
      }
      size += encoder.encode(next.value).byteLength;
      // Closed here, the stream pulls no more.
      if (size > bounds.maxBytes)
        stop(controller, `the answer passed maxStreamBytes (${bounds.maxBytes} bytes): resume to read it`);
      else controller.enqueue(next.value);
    },
    cancel(reason) {
      clearTimeout(timer);
      return reader.cancel(reason);
    },
  });
}
