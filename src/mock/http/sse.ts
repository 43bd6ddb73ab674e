import { isTerminalEvent } from '../../contract/events.js';
import { type MockClock, pause } from '../time/clock.js';
import type { EventLog, StreamEvent } from '../turns/event-log.js';
import type { MockFault } from './faults.js';
import { damageOf, encodeEvent } from './sse-damage.js';

/** Options of `sseResponse`. */
export interface SseOptions {
  /** Time source for pings. */
  clock: MockClock;
  /** Silence before a `ping`, in ms. */
  pingMs: number;
  /** A stream fault to apply (`cutAfterEvents`, `cutAfterBytes`, `stall`, `malformed`). */
  fault?: MockFault | undefined;
}

const encoder = new TextEncoder();

/**
 * A `text/event-stream` response writing the events of `log` from the first, a `ping` after every
 * `pingMs` of silence, until the terminal event (then it closes: nothing after it, 6 rule 1). Written by
 * hand rather than with hono's streamSSE, so that faults control every byte and a cancelled body is seen
 * whoever reads it. The body is pull-driven with no buffer: each read gets the next event as it happens,
 * and the silence before a ping counts from the last byte read. Cancelling the body only stops this
 * writer; the turn behind `log` goes on.
 */
export function sseResponse(log: EventLog, options: SseOptions): Response {
  const { clock, pingMs, fault } = options;
  const damage = damageOf(fault && 'malformed' in fault ? fault.malformed : undefined);
  const cutAfterEvents = fault && 'cutAfterEvents' in fault ? fault.cutAfterEvents : undefined;
  const cutAfterBytes = fault && 'cutAfterBytes' in fault ? fault.cutAfterBytes : undefined;
  const stallAfter = fault && 'stall' in fault ? fault.stall.afterEvents : undefined;

  const gone = new AbortController();
  const ready: string[] = damage.prefix ? [damage.prefix] : [];
  let index = 0;
  let events = 0;
  let bytes = 0;
  let ended = false;
  let cut = false;
  let pending: Promise<StreamEvent | undefined> | undefined;

  const write = (event: StreamEvent) => {
    events += 1;
    ready.push(damage.beforeEvent + encodeEvent(event, damage.eol));
    if (event.event === 'message.start' && damage.afterStart) ready.push(damage.afterStart);
    if (isTerminal(event)) {
      ended = true;
      const extra = damage.afterTerminal(event);
      if (extra) ready.push(extra);
    }
  };

  // Enqueues one chunk, cutting it at `cutAfterBytes`.
  const emit = (controller: ReadableStreamDefaultController<Uint8Array>, text: string) => {
    let chunk = encoder.encode(text);
    if (cutAfterBytes !== undefined && bytes + chunk.byteLength >= cutAfterBytes) {
      chunk = chunk.subarray(0, cutAfterBytes - bytes);
      cut = true;
    }
    bytes += chunk.byteLength;
    if (chunk.byteLength > 0) controller.enqueue(chunk);
    else controller.error(cutError());
  };

  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (cut) return controller.error(cutError());
        const text = ready.shift();
        if (text !== undefined) return emit(controller, text);
        if (ended) return controller.close();
        if (cutAfterEvents !== undefined && events >= cutAfterEvents) {
          gone.abort();
          return controller.error(cutError());
        }
        if (stallAfter !== undefined && events >= stallAfter) {
          // No byte, no ping, until the client goes away.
          await pause(clock, Number.POSITIVE_INFINITY, gone.signal);
          return;
        }
        pending ??= log.read(index, gone.signal);
        const silence = new AbortController();
        const next = await Promise.race([
          pending.then((event) => ({ event })),
          pause(clock, pingMs, AbortSignal.any([silence.signal, gone.signal])).then(() => undefined),
        ]);
        silence.abort();
        if (gone.signal.aborted) return;
        if (!next) {
          write({ event: 'ping', data: { ts: clock.now() / 1000 } });
        } else {
          pending = undefined;
          index += 1;
          // The log closed without a terminal event (the mock was reset): end like a dropped stream.
          if (!next.event) return controller.error(new TypeError('mock: the turn was discarded'));
          write(next.event);
        }
        const written = ready.shift();
        if (written !== undefined) emit(controller, written);
      },
      cancel() {
        gone.abort();
      },
    },
    { highWaterMark: 0 },
  );
  return new Response(body, {
    status: 200,
    headers: {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      'x-accel-buffering': 'no',
    },
  });
}

function isTerminal(event: StreamEvent): boolean {
  return isTerminalEvent(event.event);
}

function cutError(): TypeError {
  return new TypeError('mock fault: the stream was cut');
}

/** Whether `response` is an event stream (made by `sseResponse`). */
export function isEventStream(
  response: Response,
): response is Response & { body: ReadableStream<Uint8Array> } {
  return (
    response.body !== null && (response.headers.get('content-type')?.startsWith('text/event-stream') ?? false)
  );
}

/**
 * An event stream declared `transfer-encoding: chunked`, with `body` in place of its own, for the adapters
 * that write it to a socket (the node server, msw). Declared chunked, the node adapter sends the headers at
 * once instead of first buffering a few chunks (so a stream cut early fails mid-body, not before its
 * headers), and msw frames the body instead of ending it with the connection (so a client that aborts
 * sees no complete response; undici would fail an assertion then, an uncaught exception).
 */
export function chunkedEventStream(
  response: Response,
  body: ReadableStream<Uint8Array> | null = response.body,
): Response {
  const headers = new Headers(response.headers);
  headers.set('transfer-encoding', 'chunked');
  return new Response(body, { status: response.status, headers });
}
