// The shared harness's stream workload (benchmark 11), in plain JavaScript so that the processes measuring it
// load no TypeScript: its body (its `message.start`, N deltas `{"text":"word ","replace":false}`, its
// `message.end`) written into one buffer and cut by the seeded splitter, the first-event body, and the sink
// every contender hands each parsed event to.
import { cut } from './seeded.mjs';

/** The harness's seed of the cuts (the warm-up body's is this + 1, the `message.completed`'s this + 2). */
export const SEED = 0xc0ffee;
export const START_EVENT = 'event: message.start\ndata: {"id":"msg_bench","model":"bench-model"}\n\n';
export const DELTA_EVENT = 'event: message.delta\ndata: {"text":"word ","replace":false}\n\n';
export const END_EVENT = 'event: message.end\ndata: {"stop_reason":"end_turn"}\n\n';
export const DELTA_TEXT = 'word ';

const encoder = new TextEncoder();

/**
 * The body of `deltas` deltas, written straight into one buffer (a 12 MB string built first would leave its
 * pages to the read, and lower the peak measured above them), cut into chunks seeded `seed` (views of it).
 * @param {number} deltas
 * @param {number} seed
 * @returns {Uint8Array[]}
 */
export function harnessChunks(deltas, seed) {
  const start = encoder.encode(START_EVENT);
  const delta = encoder.encode(DELTA_EVENT);
  const end = encoder.encode(END_EVENT);
  const bytes = new Uint8Array(start.length + delta.length * deltas + end.length);
  bytes.set(start);
  let at = start.length;
  for (let i = 0; i < deltas; i++, at += delta.length) bytes.set(delta, at);
  bytes.set(end, at);
  return cut(bytes, seed);
}

/**
 * What folding `deltas` deltas gives.
 * @param {number} deltas
 */
export const expected = (deltas) => ({ events: deltas + 2, deltas, chars: deltas * DELTA_TEXT.length });

/** What every contender hands each parsed event to: counts the events, folds `{ text, replace }`. */
export function createSink() {
  let events = 0;
  let deltas = 0;
  let text = '';
  let firstAt = 0;
  return {
    /** @param {unknown} data */
    onEvent(data) {
      if (events === 0) firstAt = performance.now();
      events++;
      const delta = /** @type {{ text?: unknown, replace?: unknown } | null} */ (data);
      if (delta !== null && typeof delta === 'object' && typeof delta.text === 'string') {
        deltas++;
        text = delta.replace === true ? delta.text : text + delta.text;
      }
    },
    get firstAt() {
      return firstAt;
    },
    result: () => ({ events, deltas, chars: text.length }),
  };
}

/**
 * The first-event body: waits for the first read, then `delayMs` later enqueues the start event alone
 * (`marks.enqueuedAt` just before), holds the stream open `holdMs`, then enqueues the end and closes.
 * @param {{ holdMs: number, delayMs?: number, marks: { enqueuedAt?: number, closedAt?: number } }} options
 * @returns {ReadableStream<Uint8Array>}
 */
export function firstEventBody({ holdMs, delayMs = 20, marks }) {
  const first = encoder.encode(START_EVENT);
  const last = encoder.encode(END_EVENT);
  let started = false;
  return new ReadableStream(
    {
      pull(controller) {
        if (started) return;
        started = true;
        return new Promise((resolve) => {
          setTimeout(() => {
            marks.enqueuedAt = performance.now();
            controller.enqueue(first);
            setTimeout(() => {
              marks.closedAt = performance.now();
              controller.enqueue(last);
              controller.close();
              resolve(undefined);
            }, holdMs);
          }, delayMs);
        });
      },
    },
    { highWaterMark: 0 },
  );
}
