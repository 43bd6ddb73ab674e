// Benchmark 11: the shared harness's stream workload, anchors beside, measured the way that harness measures
// it, so that its figures and these can be compared (BENCHMARKS.md quotes both). Every contender hands each
// event's parsed payload to the same sink (count the events, fold `{ text, replace }`), reading the same
// 200,000 deltas `{"text":"word ","replace":false}` cut into seeded chunks of 1-4096 bytes, one chunk per
// pull. The client reads the contract's stream (`message.start`, the deltas, `message.completed` with the
// whole answer); the others read `message.start`/`message.end` around the same deltas. Each contender lives
// in its own `node --expose-gc` process: two warm-up reads of a body a tenth the size, then ROUNDS rounds,
// each contender once per round in a seeded order, right after a read by a separate splitter process (the
// pacer): the time ratio is the median of contender/pacer over the rounds, divided by the splitter's own
// ratio. Peak RSS above the start = the process's maxRSS at the end minus its RSS after setup and a GC.
// Then, in this process, the time to the first event: the body waits for the first read, one `message.start`
// is enqueued 20 ms later, the body stays open HOLD_MS; median of REPS after two warm-up reads.
// `node --expose-gc bench/anchors-sse.ts --alloc NAME` prints what one read of NAME allocates instead;
// `--reads NAME N` only reads NAME's body N times (for an instruction count).
import { type ChildProcess, fork } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { versionOf } from './lib/anchors.ts';
import { type BenchResult, emit, type Row } from './lib/result.ts';
import { bodyOf, CHAT, cut, random } from './lib/sse.ts';
import { mb, median, progress, summarize } from './lib/stats.ts';

const DELTAS = 200_000;
const SEED = 20261129;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const WARMUPS = 2;
const REPS = 5;
const HOLD_MS = 500;
const NAMES = ['splitter', 'parser', 'anthropic', 'openai', 'client'] as const;
type Name = (typeof NAMES)[number];
const REQUEST = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';

const encoder = new TextEncoder();
const event = (name: string, data: unknown) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
const DELTA = event('message.delta', { text: 'word ', replace: false });
const START = event('message.start', { id: 'msg_1', model: 'm' });
const OUR_START = event('message.start', { chat_id: CHAT, message_id: 1, request_id: REQUEST });
const END = event('message.end', { stop_reason: 'end_turn' });
const completed = (deltas: number) =>
  event('message.completed', {
    id: 1,
    chat_id: CHAT,
    role: 'assistant',
    content: 'word '.repeat(deltas),
    usage: {
      prompt_tokens: 1,
      completion_tokens: deltas,
      total_tokens: deltas + 1,
      model: 'm',
      provider: 'p',
    },
    steps: [],
    sources: [],
    anonymization: null,
    metadata: null,
  });

/**
 * The body a contender reads: its start, the deltas, its end; written straight into one buffer (a 12 MB
 * string built first would leave its pages to the read, and lower the peak measured above them), then cut
 * into seeded chunks that are views of it.
 */
function chunks(name: Name, deltas: number, seed: number): Uint8Array[] {
  const ours = name === 'client';
  const start = encoder.encode(ours ? OUR_START : START);
  const delta = encoder.encode(DELTA);
  const end = encoder.encode(ours ? completed(deltas) : END);
  const bytes = new Uint8Array(start.length + delta.length * deltas + end.length);
  bytes.set(start);
  let at = start.length;
  for (let i = 0; i < deltas; i++, at += delta.length) bytes.set(delta, at);
  bytes.set(end, at);
  return cut(bytes, seed);
}

/** What every contender hands each event to. */
function sink() {
  let events = 0;
  let deltas = 0;
  let text = '';
  return {
    take(data: unknown) {
      events++;
      const delta = data as { text?: unknown; replace?: unknown } | null;
      if (typeof delta?.text === 'string') {
        deltas++;
        text = delta.replace === true ? delta.text : text + delta.text;
      }
    },
    result: () => ({ events, deltas, chars: text.length }),
  };
}
type Sink = ReturnType<typeof sink>;
type Consume = (body: ReadableStream<Uint8Array>, sink: Sink) => Promise<void>;

const sse = { 'content-type': 'text/event-stream' };
const messages = [{ role: 'user' as const, content: 'hi' }];

/** Each contender's reader, its package imported when chosen. */
async function consumer(name: Name): Promise<Consume> {
  let next: ReadableStream<Uint8Array> | undefined;
  const fetch = async () => new Response(next, { headers: sse });
  if (name === 'client') {
    const { Client } = await import('convo-sdk');
    const client = new Client({ baseUrl: 'https://api.test', token: 'bench', maxRetries: 0, fetch });
    return async (body, sink) => {
      next = body;
      const stream = client.turns.stream(CHAT, { content: 'hi' }, { maxResumes: 0 });
      for await (const ev of stream) sink.take(ev);
      await stream.finalTurn();
    };
  }
  if (name === 'anthropic') {
    const { default: Anthropic } = await import('@anthropic-ai/sdk');
    const client = new Anthropic({ baseURL: 'https://api.test', apiKey: 'bench', maxRetries: 0, fetch });
    return async (body, sink) => {
      next = body;
      const stream = await client.messages.create({ model: 'm', max_tokens: 16, messages, stream: true });
      for await (const data of stream) sink.take(data);
    };
  }
  if (name === 'openai') {
    const { default: OpenAI } = await import('openai');
    const client = new OpenAI({ baseURL: 'https://api.test/v1', apiKey: 'bench', maxRetries: 0, fetch });
    return async (body, sink) => {
      next = body;
      const stream = await client.chat.completions.create({ model: 'm', messages, stream: true });
      for await (const data of stream) sink.take(data);
    };
  }
  if (name === 'parser') {
    const { createParser } = await import('eventsource-parser');
    return async (body, sink) => {
      const parser = createParser({ onEvent: (e) => sink.take(JSON.parse(e.data)) });
      const decoder = new TextDecoder();
      const reader = body.getReader();
      for (let r = await reader.read(); !r.done; r = await reader.read())
        parser.feed(decoder.decode(r.value, { stream: true }));
    };
  }
  // The hand-written splitter: blank-line framing, the data line parsed.
  return async (body, sink) => {
    const decoder = new TextDecoder();
    const reader = body.getReader();
    let buffer = '';
    for (let r = await reader.read(); !r.done; r = await reader.read()) {
      buffer += decoder.decode(r.value, { stream: true });
      let at = 0;
      for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n', at)) {
        const data = buffer.indexOf('\ndata: ', at);
        if (data !== -1 && data < end) sink.take(JSON.parse(buffer.slice(data + 7, end)));
        at = end + 2;
      }
      buffer = buffer.slice(at);
    }
  };
}

const expected = (deltas: number) => ({ events: deltas + 2, deltas, chars: deltas * 5 });

/** Child: reads on command; answers with the time of each read, and at the end its peak RSS. */
async function child(name: Name): Promise<void> {
  const main = chunks(name, DELTAS, SEED);
  const warm = chunks(name, DELTAS / 10, SEED + 1);
  const consume = await consumer(name);
  globalThis.gc!();
  const before = process.memoryUsage.rss();
  const read = async (list: Uint8Array[], deltas: number) => {
    globalThis.gc!();
    const into = sink();
    const started = performance.now();
    await consume(bodyOf(list), into);
    const ms = performance.now() - started;
    const got = into.result();
    const want = expected(deltas);
    if (got.events !== want.events || got.deltas !== want.deltas || got.chars !== want.chars)
      throw new Error(`${name} read ${JSON.stringify(got)}, not ${JSON.stringify(want)}`);
    return ms;
  };
  process.on('message', async (command: string) => {
    if (command === 'warm') for (let i = 0; i < WARMUPS; i++) await read(warm, DELTAS / 10);
    if (command === 'read') return process.send!({ ms: await read(main, DELTAS) });
    if (command === 'end') {
      process.send!({ peak: process.resourceUsage().maxRSS * 1024 - before, before });
      return process.disconnect();
    }
    process.send!({});
  });
  process.send!({ ready: true });
}

/** A child process and a way to ask it one thing at a time. */
function spawn(name: Name): {
  process: ChildProcess;
  ask: (command?: string) => Promise<Record<string, number>>;
} {
  const proc = fork(import.meta.filename, ['--child', name], { execArgv: ['--expose-gc'] });
  let waiting: ((answer: Record<string, number>) => void) | undefined;
  proc.on('message', (answer) => {
    const resolve = waiting;
    waiting = undefined;
    resolve?.(answer as Record<string, number>);
  });
  return {
    process: proc,
    ask: (command) =>
      new Promise((resolve) => {
        waiting = resolve;
        if (command) proc.send(command);
      }),
  };
}

/** One time to the first event in this process: the body waits for the first read, then gets `start`. */
async function firstEvent(
  consume: Consume,
  start: Uint8Array,
  end: Uint8Array,
  hold: number,
): Promise<number> {
  let enqueuedAt = 0;
  let firstAt = 0;
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let pulled!: () => void;
  const waiting = new Promise<void>((resolve) => {
    pulled = resolve;
  });
  const body = new ReadableStream<Uint8Array>(
    {
      start: (c) => {
        controller = c;
      },
      pull: () => pulled(),
    },
    { highWaterMark: 0 },
  );
  const into = sink();
  const take = into.take;
  into.take = (data) => {
    if (firstAt === 0) firstAt = performance.now();
    take(data);
  };
  const reading = consume(body, into);
  await waiting;
  // The consumer waits a while, as for a model's first token.
  await sleep(20);
  enqueuedAt = performance.now();
  controller.enqueue(start);
  await sleep(hold);
  controller.enqueue(end);
  controller.close();
  await reading;
  return firstAt - enqueuedAt;
}

/**
 * The first event's delay per contender, all loaded in this process: two warm-up reads each, then REPS
 * rounds, every contender once a round in a seeded order (its code goes cold between its reads, as it does
 * between a service's turns).
 */
async function firsts(): Promise<Record<Name, number>> {
  const consumers = new Map<Name, { consume: Consume; start: Uint8Array; end: Uint8Array }>();
  for (const name of NAMES) {
    const ours = name === 'client';
    consumers.set(name, {
      consume: await consumer(name),
      start: encoder.encode(ours ? OUR_START : START),
      end: encoder.encode(ours ? completed(0) : END),
    });
  }
  for (const { consume, start, end } of consumers.values())
    for (let i = 0; i < 2; i++) await firstEvent(consume, start, end, 20);
  const delays = new Map<Name, number[]>(NAMES.map((name) => [name, []]));
  const next = random(SEED + 2);
  for (let rep = 0; rep < REPS; rep++)
    for (const name of shuffle([...NAMES], next)) {
      const { consume, start, end } = consumers.get(name)!;
      delays.get(name)!.push(await firstEvent(consume, start, end, HOLD_MS));
    }
  return Object.fromEntries(NAMES.map((name) => [name, median(delays.get(name)!)])) as Record<Name, number>;
}

/** Fisher-Yates, seeded. */
function shuffle<T>(list: T[], next: () => number): T[] {
  for (let i = list.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [list[i], list[j]] = [list[j]!, list[i]!];
  }
  return list;
}

async function main(): Promise<BenchResult> {
  const kids = new Map(NAMES.map((name) => [name, spawn(name)]));
  const pacer = spawn('splitter');
  await Promise.all([...kids.values(), pacer].map((kid) => kid.ask()));
  for (const kid of [...kids.values(), pacer]) await kid.ask('warm');
  const ratios = new Map<Name, number[]>(NAMES.map((name) => [name, []]));
  const times = new Map<Name, number[]>(NAMES.map((name) => [name, []]));
  const next = random(SEED);
  for (let round = 0; round < ROUNDS; round++) {
    const order = shuffle([...NAMES], next);
    for (const name of order) {
      const paced = (await pacer.ask('read')).ms!;
      const ms = (await kids.get(name)!.ask('read')).ms!;
      ratios.get(name)!.push(ms / paced);
      times.get(name)!.push(ms);
    }
    progress(`round ${round}: ${order.map((n) => `${n} ${times.get(n)!.at(-1)!.toFixed(0)} ms`).join(', ')}`);
  }
  const peaks = new Map<Name, { peak: number; before: number }>();
  for (const [name, kid] of kids) peaks.set(name, (await kid.ask('end')) as { peak: number; before: number });
  await pacer.ask('end');
  const first = await firsts();

  const calibration = median(ratios.get('splitter')!);
  const label: Record<Name, string> = {
    splitter: 'hand-written splitter',
    parser: `eventsource-parser ${versionOf('eventsource-parser')} + JSON.parse, bare`,
    anthropic: `anchor: @anthropic-ai/sdk ${versionOf('@anthropic-ai/sdk')} messages.create({ stream: true })`,
    openai: `anchor: openai ${versionOf('openai')} chat.completions.create({ stream: true })`,
    client: 'client.turns.stream (injected fetch)',
  };
  const BENCH = '11 the shared workload';
  const anthropicPeak = peaks.get('anthropic')!.peak;
  const rows: Row[] = [];
  for (const name of NAMES) {
    const ours = name === 'client';
    const ratio = summarize(ratios.get(name)!.map((r) => r / calibration));
    rows.push({
      benchmark: BENCH,
      figure: `${label[name]}: 200k-delta stream, time (paired with the pacer)`,
      versus: `${name} vs splitter`,
      ratio,
      value: `${median(times.get(name)!).toFixed(0)} ms vs ${median(times.get('splitter')!).toFixed(0)} ms`,
      target: ours ? '≤ 1.3x' : name === 'splitter' ? '(reference)' : '(anchor)',
      ...(ours ? { pass: ratio.median <= 1.3 } : {}),
    });
  }
  for (const name of NAMES) {
    const ours = name === 'client';
    const { peak } = peaks.get(name)!;
    rows.push({
      benchmark: BENCH,
      figure: `${label[name]}: peak RSS above the RSS after setup`,
      versus: `${name} vs anthropic`,
      value: `${mb(peak)} (anthropic ${mb(anthropicPeak)})`,
      target: ours ? '≤ @anthropic-ai/sdk' : '(anchor)',
      ...(ours ? { pass: peak <= anthropicPeak } : {}),
    });
  }
  for (const name of NAMES) {
    const ours = name === 'client';
    rows.push({
      benchmark: BENCH,
      figure: `${label[name]}: time to first event, body held open ${HOLD_MS} ms`,
      versus: `${name} vs anthropic`,
      value: `${first[name].toFixed(3)} ms vs ${first.anthropic.toFixed(3)} ms`,
      target: ours ? '≤ @anthropic-ai/sdk' : '(anchor)',
      ...(ours ? { pass: first[name] <= first.anthropic } : {}),
    });
  }
  return {
    rows,
    notes: [
      `Benchmark 11: ${DELTAS.toLocaleString('en')} deltas in seeded chunks of 1-4096 bytes, each contender in ` +
        `its own process (${WARMUPS} warm-up reads of a tenth, ${ROUNDS} rounds, each read right after the ` +
        `pacer's); pacer calibration ${calibration.toFixed(2)}; RSS after setup ` +
        `${NAMES.map((n) => `${n} ${mb(peaks.get(n)!.before)}`).join(', ')}. The client's body ends with ` +
        '`message.completed` carrying the whole answer (1 MB), as the contract says; the others end with a short ' +
        `\`message.end\`. Time to first event: median of ${REPS} rounds after 2 warm-up reads, every contender once a round in a seeded order, in one process.`,
    ],
  };
}

/**
 * `--alloc NAME`: what one read of contender NAME allocates, garbage included (the inspector's sampling heap
 * profiler, one sample per 4 KB, keeping what minor and major GCs collected), after one warm-up read: bytes
 * per delta in all and by function, the largest first. Deterministic where times are not (a busy machine).
 */
async function allocations(name: Name): Promise<void> {
  const { Session } = await import('node:inspector/promises');
  const list = chunks(name, DELTAS, SEED);
  const consume = await consumer(name);
  await consume(bodyOf(list), sink());
  globalThis.gc!();
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: 4096,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  await consume(bodyOf(list), sink());
  const { profile } = await session.post('HeapProfiler.stopSampling');
  session.disconnect();
  const bytes = new Map<string, number>();
  const walk = (node: typeof profile.head): void => {
    const { functionName, url, lineNumber } = node.callFrame;
    const where = `${functionName || '(anonymous)'} ${url.replace(/^.*\/(node_modules|dist|bench)\//, '$1/')}:${lineNumber + 1}`;
    bytes.set(where, (bytes.get(where) ?? 0) + node.selfSize);
    for (const child of node.children) walk(child);
  };
  walk(profile.head);
  const total = [...bytes.values()].reduce((sum, b) => sum + b, 0);
  console.log(`${name}: ${(total / DELTAS).toFixed(0)} bytes allocated per delta`);
  for (const [where, b] of [...bytes].sort((x, y) => y[1] - x[1]).slice(0, 15))
    console.log(`${(b / DELTAS).toFixed(0).padStart(6)}  ${where}`);
}

/**
 * `--reads NAME N`: N reads of contender NAME's body and nothing else, for an instruction count
 * (`valgrind --tool=cachegrind --cache-sim=no`, N = 2 minus N = 0, per delta).
 */
async function reads(name: Name, count: number): Promise<void> {
  const list = chunks(name, DELTAS, SEED);
  const consume = await consumer(name);
  for (let i = 0; i < count; i++) await consume(bodyOf(list), sink());
}

const [mode, name, count] = process.argv.slice(2) as [string | undefined, Name, string | undefined];
if (mode === '--child') await child(name);
else if (mode === '--alloc') await allocations(name);
else if (mode === '--reads') await reads(name, Number(count));
else emit(await main());
