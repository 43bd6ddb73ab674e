import { createParser } from 'eventsource-parser';
import { AbortError, ConnectionError } from '../errors.js';
import { StreamBreak } from './errors.js';

/** One server-sent event as it came: its name (default `message`) and its raw data. */
export interface RawEvent {
  event: string;
  data: string;
}

/** How a body is read. */
export interface ReadOptions {
  /** No byte for this long means the connection is dead. */
  idleMs: number;
  /** The caller's signal: aborting cancels the body itself (not only the fetch, see below). */
  signal?: AbortSignal | undefined;
}

/** Largest event the parser buffers (an SSE event is bounded by the contract's own limits well below it). */
const MAX_EVENT_BYTES = 16 * 1024 * 1024;

/**
 * Reads the events of an SSE body, decoding each chunk once and yielding the events of each chunk together:
 * one async step per chunk rather than per event, which was most of the cost of a small event. Ends when
 * the body ends. Throws `StreamBreak` when no byte arrives for `idleMs` or the read fails, and `AbortError`
 * when the signal aborts. The signal is tied to the body reader here because a fetch made with a Request
 * object can lose its abort after a GC.
 */
export async function* readEvents(
  body: ReadableStream<Uint8Array>,
  options: ReadOptions,
): AsyncGenerator<RawEvent[]> {
  const { idleMs, signal } = options;
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let queue: RawEvent[] = [];
  const parser = createParser({
    // The parser's own object, named: one allocation per event fewer.
    onEvent: (message) => {
      message.event ??= 'message';
      queue.push(message as RawEvent);
    },
    maxBufferSize: MAX_EVENT_BYTES,
  });
  // The idle clock runs only while waiting for bytes: a consumer that takes its time between events (an
  // interaction handler, say) is not a dead connection.
  let waitingSince: number | undefined;
  let stalled = false;
  let finished = false;
  const cancel = (reason: unknown) => {
    reader.cancel(reason).catch(() => {});
  };
  // One timer, re-armed only when it fires early: cheaper than resetting it on every chunk.
  const check = () => {
    const idle = waitingSince === undefined ? 0 : Date.now() - waitingSince;
    if (idle < idleMs) {
      timer = setTimeout(check, idleMs - idle);
      return;
    }
    stalled = true;
    cancel(new Error('stalled'));
  };
  let timer = setTimeout(check, idleMs);
  // Mirrors `signal.aborted` (the listener runs as the signal aborts): that getter is costly on the
  // composite signals of AbortSignal.any, and it was read for every chunk.
  let aborted = false;
  const onAbort = () => {
    aborted = true;
    cancel(signal?.reason);
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    if (signal?.aborted) throw abortError(signal);
    for (;;) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      waitingSince = Date.now();
      try {
        chunk = await reader.read();
      } catch (error) {
        throw readFailure(error, signal, stalled, idleMs);
      }
      waitingSince = undefined;
      if (aborted) throw abortError(signal!);
      if (stalled) throw new StreamBreak(`no byte for ${idleMs} ms`);
      if (chunk.done) {
        finished = true;
        return;
      }
      parser.feed(decoder.decode(chunk.value, { stream: true }));
      if (queue.length === 0) continue;
      const batch = queue;
      queue = [];
      yield batch;
    }
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
    if (!finished) cancel(new Error('stopped reading'));
    reader.releaseLock();
  }
}

function readFailure(
  error: unknown,
  signal: AbortSignal | undefined,
  stalled: boolean,
  idleMs: number,
): Error {
  if (signal?.aborted) return abortError(signal);
  if (stalled) return new StreamBreak(`no byte for ${idleMs} ms`);
  const reason = error instanceof Error ? error.message : String(error);
  return new ConnectionError(`the stream broke: ${reason}`, { cause: error });
}

function abortError(signal: AbortSignal): AbortError {
  return new AbortError('the stream was aborted by its signal', { cause: signal.reason });
}
