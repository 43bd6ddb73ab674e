// The harness's body as the contract's stream, rewritten as it flows, as the shared harness's adapter
// rewrites it before the client reads it (so that the client here does the same work as there): the client
// checks the stream (section 6), so the harness's `message.start` must become the contract's `{chat_id,
// message_id, request_id}`, and the stream must end with a terminal event, `message.completed` carrying the
// whole answer, in place of the harness's `message.end`. One more ReadableStream between the body and the
// client, as there:
//  - the first START_EVENT bytes (checked) become one chunk, the contract's `message.start`, handed on as soon
//    as they have all arrived (the time to the first event measures that event);
//  - every later chunk is handed on as it is (the same object), one behind, so that the last END_EVENT bytes
//    are always still held;
//  - at the end those bytes (checked) are dropped, what else was held is handed on as one chunk, then
//    `message.completed` for the answer of N deltas (N from the byte count), cut by the seeded splitter with
//    the harness's seed + 2 and built ahead (the server's data, like the body), one chunk a read.
import { cut } from './seeded.mjs';
import { DELTA_EVENT, DELTA_TEXT, END_EVENT, SEED, START_EVENT } from './workload.mjs';

/** The ids the harness's adapter gives the client's turn. */
export const CHAT = '0b0e5f1e-5a8e-4c59-9d2a-6f1f4b1c2d3e';
const REQUEST = '4a7c9e2b-1d3f-4b5a-8c6d-7e8f9a0b1c2d';

const encoder = new TextEncoder();
const START = encoder.encode(START_EVENT);
const END = encoder.encode(END_EVENT);
const DELTA_BYTES = encoder.encode(DELTA_EVENT).length;
const OUR_START = encoder.encode(
  `event: message.start\ndata: ${JSON.stringify({ chat_id: CHAT, message_id: 1, request_id: REQUEST })}\n\n`,
);
/** @type {Map<number, Uint8Array[]>} */
const completed = new Map();

/**
 * `message.completed` for an answer of `deltas` deltas, cut into chunks (built once per count).
 * @param {number} deltas
 * @returns {Uint8Array[]}
 */
export function completedChunks(deltas) {
  let chunks = completed.get(deltas);
  if (!chunks) {
    const turn = {
      id: 1,
      chat_id: CHAT,
      role: 'assistant',
      content: DELTA_TEXT.repeat(deltas),
      usage: {
        prompt_tokens: 1,
        completion_tokens: deltas,
        total_tokens: deltas + 1,
        model: 'bench-model',
        provider: 'bench',
      },
      steps: [],
      sources: [],
      anonymization: null,
      metadata: null,
    };
    chunks = cut(encoder.encode(`event: message.completed\ndata: ${JSON.stringify(turn)}\n\n`), SEED + 2);
    completed.set(deltas, chunks);
  }
  return chunks;
}

/**
 * @param {Uint8Array} a
 * @param {Uint8Array} b
 */
function same(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * The harness's body `source` as the contract's stream (see above).
 * @param {ReadableStream<Uint8Array>} source
 * @returns {ReadableStream<Uint8Array>}
 */
export function toSpecStream(source) {
  const reader = source.getReader();
  const head = new Uint8Array(START.length);
  let headBytes = 0;
  let total = 0;
  /** @type {Uint8Array[]} */
  const held = [];
  let heldBytes = 0;
  /** @type {Uint8Array[] | undefined} */
  let tail;
  let tailAt = 0;

  /** At the end: the held bytes without END, then `message.completed`. */
  const finish = () => {
    const rest = new Uint8Array(heldBytes);
    let at = 0;
    for (const chunk of held) {
      rest.set(chunk, at);
      at += chunk.length;
    }
    const keep = rest.length - END.length;
    if (headBytes < START.length || keep < 0 || !same(rest.subarray(keep), END))
      throw new Error('toSpecStream: the body did not end with the harness end event');
    const deltas = (total - START.length - END.length) / DELTA_BYTES;
    if (!Number.isInteger(deltas)) throw new Error('toSpecStream: the body is not start, deltas, end');
    return keep > 0 ? [rest.subarray(0, keep), ...completedChunks(deltas)] : completedChunks(deltas);
  };

  return new ReadableStream(
    {
      async pull(controller) {
        for (;;) {
          if (tail) {
            if (tailAt < tail.length) controller.enqueue(tail[tailAt++]);
            else controller.close();
            return;
          }
          const { value, done } = await reader.read();
          if (done) {
            tail = finish();
            continue;
          }
          total += value.length;
          let chunk = value;
          let handed = false;
          if (headBytes < START.length) {
            const take = Math.min(START.length - headBytes, chunk.length);
            head.set(chunk.subarray(0, take), headBytes);
            headBytes += take;
            chunk = chunk.subarray(take);
            if (headBytes < START.length) continue;
            if (!same(head, START))
              throw new Error('toSpecStream: the body did not start with the harness start');
            controller.enqueue(OUR_START);
            handed = true;
            if (chunk.length === 0) return;
          }
          held.push(chunk);
          heldBytes += chunk.length;
          // Hand on the oldest chunks while the rest still hold END's bytes.
          while (heldBytes - /** @type {Uint8Array} */ (held[0]).length >= END.length) {
            const oldest = /** @type {Uint8Array} */ (held.shift());
            heldBytes -= oldest.length;
            controller.enqueue(oldest);
            handed = true;
          }
          if (handed) return;
        }
      },
      cancel: (reason) => reader.cancel(reason),
    },
    { highWaterMark: 0 },
  );
}
