// The processes of benchmark 11 (bench/anchors-sse.ts forks them), in plain JavaScript as the shared
// harness's are, with its order of steps:
//  --child NAME DELTAS   one contender: the body and the warm-up body (a tenth, cut with the seed + 1) built,
//                        the consumer made, a GC, the RSS taken; then reads on command (`warm` N, `read`), each
//                        after a GC, answering its time and CPU time; `end` answers the maxRSS.
//  --first NAMES DELTAS  the time to the first event of every contender in NAMES, in this one process: each
//                        consumer made in turn, WARM_UPS rounds holding 20 ms in NAMES's order, then `reps`
//                        rounds holding `hold` ms in a seeded order; `first` answers each one's delays.
import { createHash } from 'node:crypto';
import { consumer } from './contenders.mjs';
import { bodyOf, random, shuffle } from './seeded.mjs';
import { serveParent } from './serve-parent.mjs';
import { createSink, expected, firstEventBody, harnessChunks, SEED } from './workload.mjs';

const WARM_UPS = 2;

/**
 * @param {string} name
 * @param {number} deltas
 */
async function streamChild(name, deltas) {
  const main = harnessChunks(deltas, SEED);
  const bytes = new Uint8Array(main[0].buffer);
  const digest = createHash('sha256')
    .update(bytes)
    .update(Uint32Array.from(main, (c) => c.length))
    .digest('hex')
    .slice(0, 16);
  const warmDeltas = Math.max(1, Math.floor(deltas / 10));
  const warm = harnessChunks(warmDeltas, SEED + 1);
  const consume = await consumer(name, [deltas, warmDeltas, 0]);
  globalThis.gc();
  const before = process.memoryUsage().rss;

  /**
   * @param {Uint8Array[]} chunks
   * @param {number} count
   */
  const read = async (chunks, count) => {
    globalThis.gc();
    const sink = createSink();
    const cpu = process.cpuUsage();
    const started = performance.now();
    await consume(bodyOf(chunks), sink.onEvent);
    const ms = performance.now() - started;
    const { user, system } = process.cpuUsage(cpu);
    const got = sink.result();
    const want = expected(count);
    if (got.events !== want.events || got.deltas !== want.deltas || got.chars !== want.chars)
      throw new Error(`${name} read ${JSON.stringify(got)}, not ${JSON.stringify(want)}`);
    return { ms, cpu: (user + system) / 1000 };
  };
  serveParent(
    {
      warm: async (n) => {
        for (let i = 0; i < Number(n); i++) await read(warm, warmDeltas);
        return {};
      },
      read: () => read(main, deltas),
      end: () => ({ peak: process.resourceUsage().maxRSS * 1024 - before, before }),
    },
    // The digest of the bytes and the cuts, as the harness's `input.digest`: the same input as there.
    { digest, bytes: bytes.length, chunks: main.length },
  );
}

/**
 * @param {string[]} names
 * @param {number} deltas
 */
async function firstChild(names, deltas) {
  /** @type {Map<string, import('./contenders.mjs').Consume>} */
  const consumers = new Map();
  for (const name of names)
    consumers.set(name, await consumer(name, [deltas, Math.max(1, Math.floor(deltas / 10)), 0]));
  /**
   * One first event: the delay from the start event's enqueue to the sink's first event.
   * @param {string} name
   * @param {number} holdMs
   */
  const once = async (name, holdMs) => {
    /** @type {{ enqueuedAt?: number }} */
    const marks = {};
    const sink = createSink();
    await /** @type {import('./contenders.mjs').Consume} */ (consumers.get(name))(
      firstEventBody({ holdMs, marks }),
      sink.onEvent,
    );
    const { events } = sink.result();
    if (events !== 2) throw new Error(`${name}: ${events} events, not 2`);
    return sink.firstAt - /** @type {number} */ (marks.enqueuedAt);
  };
  serveParent({
    first: async (arg) => {
      const { reps, hold } = /** @type {{ reps: number, hold: number }} */ (arg);
      for (let w = 0; w < WARM_UPS; w++) for (const name of names) await once(name, 20);
      /** @type {Record<string, number[]>} */
      const delays = Object.fromEntries(names.map((name) => [name, []]));
      const next = random(0x77fe);
      for (let rep = 0; rep < reps; rep++)
        for (const name of shuffle([...names], next)) delays[name]?.push(await once(name, hold));
      return delays;
    },
    end: () => ({}),
  });
}

const [mode, names, deltas] = process.argv.slice(2);
if (mode === '--child') await streamChild(String(names), Number(deltas));
else if (mode === '--first') await firstChild(String(names).split(','), Number(deltas));
else throw new Error('usage: sse-child.mjs --child NAME DELTAS | --first NAMES DELTAS');
