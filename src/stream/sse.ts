import { createParser } from 'eventsource-parser';
import { AbortError, ConnectionError, StreamBreak, TurnTooLargeError } from '../errors/index.js';
import { checkOption } from '../http/validate.js';

/** One server-sent event as it came: its name (default `message`) and its raw data. */
export interface RawEvent {
  event: string;
  data: string;
}

/** How a body is read. */
export interface ReadOptions {
  /** No event (a ping counts; comments and partial lines do not) for this long means the connection is dead. */
  idleMs: number;
  /**
   * Largest sum of the body's bytes (events, pings, comments alike): what one connection may deliver of a
   * turn (the `maxTurnBytes` option). A re-opened connection re-delivers the turn from its start, so each
   * body is counted from zero and a replay never counts twice.
   */
  maxBytes: number;
  /** The caller's signal: aborting cancels the body itself (not only the fetch, see below). */
  signal?: AbortSignal | undefined;
}

/** Largest event the parser buffers, in characters (an event is bounded by the contract's own limits well below it). */
const MAX_EVENT_CHARS = 16 * 1024 * 1024;

/** How each chunk is decoded: a character whose bytes a chunk splits is completed by the next one. */
const STREAMING = { stream: true } as const;

/**
 * Maps the raw events of one chunk onto `out`; `true` stops reading (the turn ended). What it put in `out`
 * before throwing is yielded before the error.
 */
export type Take<T> = (raws: RawEvent[], out: T[]) => boolean;

/** The raw events as they came. */
const keepAll: Take<RawEvent> = (raws, out) => {
  out.push(...raws);
  return false;
};

/**
 * Reads the events of an SSE body, decoding each chunk once and yielding what `take` makes of the events of
 * each chunk together: one async step per chunk rather than per event, and no layer of its own for the
 * mapping. Returns `true` when `take` stopped the reading, `false` when the body ended. Throws
 * `StreamBreak` when no event arrives for `idleMs` (bytes that make no event, such as comments trickled by
 * a dead upstream, do not keep it alive), when an event grows past
 * `MAX_EVENT_CHARS`, or when the read fails; `TurnTooLargeError` when the body passes `maxBytes`;
 * `AbortError` when the signal aborts; `ValidationError` when `idleMs` is not 1 to 2^31-1 (the
 * `idleTimeout` option) or `maxBytes` not 1 to 2^29 (`maxTurnBytes`). The signal is tied to the body
 * reader here because a fetch made with a Request object can lose its abort after a GC.
 */
export async function* readEvents<T = RawEvent>(
  body: ReadableStream<Uint8Array>,
  options: ReadOptions,
  take: Take<T> = keepAll as Take<unknown>,
): AsyncGenerator<T[], boolean> {
  const { idleMs, maxBytes, signal } = options;
  // Every reader's idle timer (a relay's too) gets a delay it can hold, and every body a bound.
  checkOption('idleTimeout', idleMs);
  checkOption('maxTurnBytes', maxBytes);
  let received = 0;
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let raws: RawEvent[] = [];
  let overflow = false;
  // One parser per body; its own event object is what `take` gets (named, when the server named none).
  const parser = createParser({
    onEvent: (message) => {
      message.event ??= 'message';
      raws.push(message as RawEvent);
    },
    onError: (error) => {
      if (error.type === 'max-buffer-size-exceeded') overflow = true;
    },
    maxBufferSize: MAX_EVENT_CHARS,
  });
  // The idle clock runs only while waiting for the next event: a consumer that takes its time between
  // events (an interaction handler, say) is not a dead connection.
  let waitingSince: number | undefined = Date.now();
  let stalled = false;
  let finished = false;
  const cancel = (reason: unknown) => {
    reader.cancel(reason).catch(() => {});
  };
  // One timer, re-armed only when it fires early: cheaper than resetting it on every chunk. While the
  // consumer holds a batch it stops, and the next read arms it again: a stream read by hand and left after
  // its last event keeps no timer (nor the process) alive.
  let timer: ReturnType<typeof setTimeout> | undefined;
  const check = () => {
    timer = undefined;
    if (waitingSince === undefined) return;
    const idle = Date.now() - waitingSince;
    if (idle < idleMs) {
      timer = setTimeout(check, idleMs - idle);
      return;
    }
    stalled = true;
    cancel(new Error('stalled'));
  };
  timer = setTimeout(check, idleMs);
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
      try {
        chunk = await reader.read();
      } catch (error) {
        throw readFailure(error, signal, stalled, idleMs);
      }
      if (aborted) throw abortError(signal!);
      if (stalled) throw silence(idleMs);
      if (chunk.done) {
        finished = true;
        return false;
      }
      // Checked before decoding: the text of a body without end would outgrow memory, then V8's string limit.
      received += chunk.value.byteLength;
      if (received > maxBytes) throw new TurnTooLargeError(maxBytes);
      parser.feed(decoder.decode(chunk.value, STREAMING));
      if (overflow) throw new StreamBreak(`an event grew past ${MAX_EVENT_CHARS} characters`);
      if (raws.length === 0) continue;
      const batch = raws;
      raws = [];
      const out: T[] = [];
      let ended: boolean;
      waitingSince = undefined;
      try {
        ended = take(batch, out);
      } finally {
        // What was mapped before a failing event is handed out before its error.
        if (out.length > 0) yield out;
      }
      if (ended) return true;
      waitingSince = Date.now();
      timer ??= setTimeout(check, idleMs);
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
  if (stalled) return silence(idleMs);
  const reason = error instanceof Error ? error.message : String(error);
  return new ConnectionError(`the stream broke: ${reason}`, { cause: error });
}

function silence(idleMs: number): StreamBreak {
  return new StreamBreak(`no event for ${idleMs} ms`);
}

function abortError(signal: AbortSignal): AbortError {
  return new AbortError('the stream was aborted by its signal', { cause: signal.reason });
}
