// Benchmark 9: the stream as a process pays it. Each contender reads the turn of benchmark 1 once, alone in a
// fresh process, the consumer keeping nothing: wall time and peak RSS above the RSS just before the read (the
// kernel's high-water mark, reset before the read: Linux only). Then, in other fresh processes, the time to
// the first event. Three processes per contender, medians; ratios against the hand-written splitter.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { anthropicWire, openaiWire, type Wire } from './lib/anchor-sse.ts';
import { versionOf } from './lib/anchors.ts';
import { type BenchResult, emit, type Row } from './lib/result.ts';
import { bodyOf, CHAT, completedEvent, cut, deltaText, startEvent, turnBytes } from './lib/sse.ts';
import { mb, median, progress, summarize } from './lib/stats.ts';

const DELTAS = 200_000;
const SEED = 20261122;
const ROUNDS = 3;
const SAMPLES = 7;
const HOLD_MS = 50;
const NAMES = ['splitter', 'client', 'anthropic', 'openai'] as const;
type Name = (typeof NAMES)[number];

/** One contender: its wire format and its consumer's events over a body. */
interface Side {
  wire: Wire;
  /** A reader that folds the text itself instead of handing out events (the splitter). */
  fold?: (body: ReadableStream<Uint8Array>) => Promise<string>;
  /** The events as the application reads them (the request made, awaiting the body). */
  events(body: ReadableStream<Uint8Array>): Promise<AsyncIterator<unknown>>;
  /** Whether an event is one of the turn's deltas. */
  isDelta(event: unknown): boolean;
}

const encoder = new TextEncoder();
const sdkWire: Wire = {
  turn: (count) => turnBytes(count).bytes,
  first: encoder.encode(startEvent()),
  last: encoder.encode(completedEvent('')),
};
const typeOf = (event: unknown) => (event as { type?: string }).type;
const response = (body: ReadableStream<Uint8Array>) =>
  new Response(body, { headers: { 'content-type': 'text/event-stream' } });
/** The injected fetch every contender reads through: it answers with the body. */
const fetchOf = (body: ReadableStream<Uint8Array>) => async () => response(body);
const answer = () => Array.from({ length: DELTAS }, (_, i) => deltaText(i)).join('');
const messages = [{ role: 'user' as const, content: 'x' }];

/** Each side imports its package when chosen, so that an anchor's process holds no other contender's code. */
async function side(name: Name): Promise<Side> {
  if (name === 'client') {
    const { Client } = await import('convo-sdk');
    return {
      wire: sdkWire,
      events: async (body) => {
        const client = new Client({
          baseUrl: 'https://api.test',
          token: 'bench',
          fetch: fetchOf(body),
        });
        return client.turns.stream(CHAT, { content: 'x' })[Symbol.asyncIterator]();
      },
      isDelta: (event) => typeOf(event) === 'delta',
    };
  }
  if (name === 'anthropic') {
    const { default: Anthropic } = await import('@anthropic-ai/sdk');
    return {
      wire: anthropicWire,
      events: async (body) => {
        const client = new Anthropic({
          baseURL: 'https://api.test',
          apiKey: 'bench',
          fetch: fetchOf(body),
        });
        const stream = await client.messages.create({ model: 'm', max_tokens: 1024, messages, stream: true });
        return stream[Symbol.asyncIterator]();
      },
      isDelta: (event) => typeOf(event) === 'content_block_delta',
    };
  }
  if (name === 'openai') {
    const { default: OpenAI } = await import('openai');
    return {
      wire: openaiWire,
      events: async (body) => {
        const client = new OpenAI({
          baseURL: 'https://api.test/v1',
          apiKey: 'bench',
          fetch: fetchOf(body),
        });
        const stream = await client.chat.completions.create({ model: 'm', messages, stream: true });
        return stream[Symbol.asyncIterator]();
      },
      isDelta: (event) =>
        Boolean((event as { choices: Array<{ delta: { content?: string } }> }).choices[0]?.delta.content),
    };
  }
  // The splitter folds the text itself, reading the body of a fetch Response as the others do; its first
  // "event" is the bare read, the floor.
  const { viaSplitter } = await import('./lib/readers.ts');
  return {
    wire: sdkWire,
    fold: async (body) => viaSplitter((await fetchOf(body)()).body!),
    events: async (body) => {
      const reader = body.getReader();
      return {
        next: async () =>
          (await reader.read()).done ? { done: true, value: undefined } : { done: false, value: 'chunk' },
      };
    },
    isDelta: () => false,
  };
}

/** Reads the whole turn, keeping nothing: the folded text of a folding reader, else the count of deltas. */
async function readTurn(on: Side, body: ReadableStream<Uint8Array>): Promise<string | number> {
  if (on.fold) return on.fold(body);
  const events = await on.events(body);
  let deltas = 0;
  for (let next = await events.next(); !next.done; next = await events.next())
    if (on.isDelta(next.value)) deltas++;
  return deltas;
}

/** The kernel's peak RSS of this process (VmHWM), and its reset (Linux 4.0+). */
const hwm = () => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))![1]) * 1024;
const resetHwm = () => writeFileSync('/proc/self/clear_refs', '5');

/**
 * Starts a CPU profile of this process (bench/tools/read-turn.ts --prof); the function returned stops it and
 * writes it to `dir` as read-NAME-PID.cpuprofile, so that the profile holds the read and nothing before it.
 */
async function profileTo(dir: string, name: Name): Promise<() => Promise<void>> {
  const { Session } = await import('node:inspector/promises');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  await session.post('Profiler.start');
  return async () => {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(join(dir, `read-${name}-${process.pid}.cpuprofile`), JSON.stringify(profile));
    session.disconnect();
  };
}

/**
 * Child: one read of the turn in `file` (written by the parent, so that building it leaves no garbage heap
 * here for the read to reuse); prints its time and its peak RSS above the RSS before it.
 */
async function readOnce(name: Name, file: string): Promise<void> {
  const on = await side(name);
  const body = bodyOf(cut(readFileSync(file), SEED));
  // A process that reads a response has made a fetch: Node loads undici with the first Response (about
  // 40 ms and 8 MB), whoever reads the body, so every contender has it loaded before the read.
  response(new ReadableStream());
  const gc = globalThis.gc!;
  gc();
  gc();
  const before = process.memoryUsage.rss();
  const profiler = process.env.BENCH_PROFILE ? await profileTo(process.env.BENCH_PROFILE, name) : undefined;
  resetHwm();
  const started = performance.now();
  const got = await readTurn(on, body);
  const ms = performance.now() - started;
  const peak = hwm() - before;
  await profiler?.();
  if (got !== (typeof got === 'string' ? answer() : DELTAS)) throw new Error(`${name} read the turn wrong`);
  process.stdout.write(`${JSON.stringify({ ms, peak, before })}\n`);
}

/** One delay: the consumer waits, the first event is enqueued, the body stays open HOLD_MS, then ends. */
async function firstEvent(on: Side): Promise<number> {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
  });
  let enqueuedAt = 0;
  const events = await on.events(body);
  const delivered = events.next().then(() => performance.now() - enqueuedAt);
  await sleep(20);
  enqueuedAt = performance.now();
  controller.enqueue(on.wire.first);
  await sleep(HOLD_MS);
  controller.enqueue(on.wire.last);
  controller.close();
  const delay = await delivered;
  while (!(await events.next()).done);
  return delay;
}

/** Child: warmed up on whole short turns (a process already serving), the median of SAMPLES delays. */
async function firstOnce(name: Name): Promise<void> {
  const on = await side(name);
  for (let i = 0; i < 200; i++) {
    const events = await on.events(new Blob([on.wire.first, on.wire.last]).stream());
    while (!(await events.next()).done);
  }
  const delays: number[] = [];
  for (let i = 0; i < SAMPLES; i++) delays.push(await firstEvent(on));
  process.stdout.write(`${JSON.stringify({ first: median(delays) })}\n`);
}

/** Each wire format's turn, written once for the children to read. */
const WIRES = { ours: sdkWire, anthropic: anthropicWire, openai: openaiWire };
function writeTurns(dir: string): Record<Name, string> {
  const content = answer();
  const path = (key: keyof typeof WIRES) => {
    const file = join(dir, `${key}.sse`);
    writeFileSync(file, WIRES[key].turn(DELTAS, content));
    return file;
  };
  const ours = path('ours');
  return { splitter: ours, client: ours, anthropic: path('anthropic'), openai: path('openai') };
}

function child<T>(mode: string, name: Name, file = ''): T {
  const out = execFileSync(process.execPath, ['--expose-gc', import.meta.filename, mode, name, file], {
    encoding: 'utf8',
  });
  return JSON.parse(out.trim().split('\n').at(-1)!) as T;
}

async function main(turns: Record<Name, string>): Promise<BenchResult> {
  const reads = Object.fromEntries(
    NAMES.map((n) => [n, [] as Array<{ ms: number; peak: number; before: number }>]),
  );
  const firsts = Object.fromEntries(NAMES.map((n) => [n, [] as number[]]));
  for (let round = 0; round < ROUNDS; round++) {
    const order = [...NAMES.slice(round), ...NAMES.slice(0, round)];
    for (const name of order) reads[name]!.push(child('--read', name, turns[name]));
    for (const name of order) firsts[name]!.push(child<{ first: number }>('--first', name).first);
    progress(
      `round ${round}: ${NAMES.map((n) => {
        const r = reads[n]!.at(-1)!;
        return `${n} ${r.ms.toFixed(0)} ms ${mb(r.peak)} first ${firsts[n]!.at(-1)!.toFixed(3)} ms`;
      }).join(', ')}`,
    );
  }
  const ratio = (name: Name, of: 'ms' | 'peak') =>
    summarize(reads[name]!.map((r, i) => r[of] / reads.splitter![i]![of]));
  const ms = (name: Name) => median(reads[name]!.map((r) => r.ms));
  const peak = (name: Name) => median(reads[name]!.map((r) => r.peak));
  const first = (name: Name) => median(firsts[name]!);
  const label: Record<Name, string> = {
    client: 'client.turns.stream (injected fetch)',
    splitter: 'hand-written splitter',
    anthropic: `@anthropic-ai/sdk ${versionOf('@anthropic-ai/sdk')} messages.create({ stream: true })`,
    openai: `openai ${versionOf('openai')} chat.completions.create({ stream: true })`,
  };
  const BENCH = '9 stream per process';
  const rows: Row[] = [];
  for (const name of ['client', 'anthropic', 'openai'] as const) {
    const anchor = name !== 'client';
    const time = ratio(name, 'ms');
    const memory = ratio(name, 'peak');
    rows.push(
      {
        benchmark: BENCH,
        figure: `${anchor ? 'anchor: ' : ''}${label[name]}: wall time of one read, fresh process`,
        versus: `${name} vs splitter`,
        ratio: time,
        value: `${ms(name).toFixed(0)} ms vs ${ms('splitter').toFixed(0)} ms`,
        target: anchor ? '(anchor)' : '≤ 1.3x',
        ...(anchor ? {} : { pass: time.median <= 1.3 }),
      },
      {
        benchmark: BENCH,
        figure: `${anchor ? 'anchor: ' : ''}${label[name]}: peak RSS above the RSS before the read`,
        versus: `${name} vs splitter`,
        ratio: memory,
        value: `${mb(peak(name))} vs ${mb(peak('splitter'))}`,
        target: anchor ? '(anchor)' : '≤ 1.25x',
        ...(anchor ? {} : { pass: memory.median <= 1.25 }),
      },
    );
  }
  const anthropicFirst = first('anthropic');
  for (const name of ['client', 'anthropic', 'openai', 'splitter'] as const) {
    rows.push({
      benchmark: BENCH,
      figure: `time to first event: ${name === 'splitter' ? 'bare reader.read() (the floor)' : label[name]}, body held open ${HOLD_MS} ms`,
      versus: `${name} vs @anthropic-ai/sdk`,
      ratio: summarize(firsts[name]!.map((f, i) => f / firsts.anthropic![i]!)),
      value: `${first(name).toFixed(3)} ms vs ${anthropicFirst.toFixed(3)} ms`,
      target: name === 'client' ? '≤ @anthropic-ai/sdk' : '(reference)',
      ...(name === 'client' ? { pass: first(name) <= anthropicFirst } : {}),
    });
  }
  const sizes = (['client', 'anthropic', 'openai'] as const).map(
    (n) => `${n} ${mb(statSync(turns[n]).size)}`,
  );
  return {
    rows,
    notes: [
      `Benchmark 9: each contender reads the turn of benchmark 1 (${DELTAS.toLocaleString('en')} deltas, the ` +
        'answer whole in the last event; the anchors in their own wire format with the answer on their last event: ' +
        `${sizes.join(', ')}) in seeded chunks of 1-4096 bytes, once, in a fresh \`node --expose-gc\` process, ` +
        `${ROUNDS} processes each, every one through the same injected fetch (the splitter reads its ` +
        "Response's body) with undici loaded before the read; the consumer keeps nothing (the splitter folds " +
        'the text). Peak = VmHWM (reset ' +
        'before the read) minus the RSS after a full GC just before it; pre-run RSS ' +
        `${NAMES.map((n) => `${n} ${mb(median(reads[n]!.map((r) => r.before)))}`).join(', ')}. Time to first ` +
        `event: median of ${SAMPLES} after 200 warm-up turns, ${ROUNDS} processes each, median of the processes.`,
    ],
  };
}

const [mode, name, file] = process.argv.slice(2) as [string | undefined, Name, string];
if (mode === '--read') await readOnce(name, file);
else if (mode === '--first') await firstOnce(name);
else {
  const dir = mkdtempSync(join(tmpdir(), 'convo-bench-'));
  try {
    emit(await main(writeTurns(dir)));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
