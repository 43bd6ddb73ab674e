// Issue 29, 3a, as a process pays it: a streamed turn whose body sends 1 MiB deltas without end, read by
// `client.turns.stream` through a fetch that generates it. Prints how the read ended, the bytes the body
// gave, and the peak heap and RSS above the start (sampled at each event). The test
// (`test/unit/turn-bytes.test.ts`) asserts the ending; this shows the memory.
import { MAX_TURN_BYTES } from '../../../src/http/validate.js';
import { Client } from '../../../src/index.js';
import { CHAT, sseEvent, startEvent } from '../../lib/sse.ts';

const MiB = 1024 * 1024;
const encoder = new TextEncoder();
const START = encoder.encode(startEvent());
const DELTA = encoder.encode(sseEvent('message.delta', { text: 'a'.repeat(MiB), replace: false }));

let sent = 0;
const fetch = async () => {
  let started = false;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = (started ? DELTA : START).slice();
      started = true;
      sent += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
  return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
};

const unbounded = process.argv.includes('--unbounded');
const client = new Client({ baseUrl: 'https://api.test', token: 'bench', fetch });
const stream = client.turns.stream(CHAT, { content: 'x' }, unbounded ? { maxTurnBytes: MAX_TURN_BYTES } : {});
const before = process.memoryUsage();
let heap = 0;
let rss = 0;
let outcome = 'ended';
try {
  for await (const _ of stream) {
    const now = process.memoryUsage();
    heap = Math.max(heap, now.heapUsed - before.heapUsed);
    rss = Math.max(rss, now.rss - before.rss);
  }
} catch (error) {
  const { name, message } = error as Error;
  const key = (error as { idempotencyKey?: string }).idempotencyKey ? ' (with the key)' : ' (no key)';
  outcome = `${name}${key}: ${message.slice(0, 80)}`;
}
console.log(`${unbounded ? 'maxTurnBytes 2^29 (the largest)' : 'default maxTurnBytes'}: ${outcome}`);
console.log(
  `body sent ${Math.round(sent / MiB)} MiB; peak heap +${Math.round(heap / MiB)} MiB, peak RSS +${Math.round(rss / MiB)} MiB`,
);
