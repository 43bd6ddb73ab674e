// Benchmark 11: the shared harness's stream workload, anchors beside, measured the way that harness measures
// it (its own code here), so that the two agree (bench/tools/agree.ts). The same bytes as the harness: its
// `message.start`, 200,000 deltas `{"text":"word ","replace":false}` and `message.end`, cut into chunks of
// 1-4096 bytes by mulberry32 seeded 0xc0ffee, one chunk per pull. The client reads what the harness's adapter
// hands it: the contract's `message.start` in place of the harness's, the same chunks after it, and
// `message.completed` with the whole answer (1 MB, cut with the seed + 2) in place of `message.end`. Every
// contender hands each event's parsed payload to the same sink (count the events, fold `{ text, replace }`).
// Each contender lives in its own `node --expose-gc` process (bench/lib/child.ts), "client, telemetry on" too
// (the OpenTelemetry SDK registered in its process): two warm-up reads of a body a tenth the size, then ROUNDS
// rounds, each contender once per round in a seeded order, right after a read by a separate splitter process
// (the pacer): the time ratio is the median of contender/pacer over the rounds, divided by the splitter's own
// ratio. Peak RSS above the start = the process's maxRSS at the end minus its RSS after setup and a GC.
// Then the time to the first event, in fresh processes, one per contender: the body waits for the first read,
// one start event is enqueued 20 ms later, the body stays open HOLD_MS; two warm-up reads held 20 ms, then
// REPS rounds, each contender once a round in a seeded order; the median.
// `node --expose-gc bench/anchors-sse.ts --alloc NAME` prints what one read of NAME allocates instead;
// `--reads NAME N` only reads NAME's body N times (for an instruction count).
import { setTimeout as sleep } from 'node:timers/promises';
import { versionOf } from './lib/anchors.ts';
import { type Answer, type Child, serveParent, spawnChild } from './lib/child.ts';
import { type BenchResult, emit, type Row } from './lib/result.ts';
import { bodyOf, cut, random } from './lib/sse.ts';
import { mb, median, progress, SMOKE, shuffle, summarize } from './lib/stats.ts';

const DELTAS = SMOKE ? 2_000 : 200_000;
const SEED = 0xc0ffee;
const ROUNDS = SMOKE ? 2 : Number(process.env.BENCH_ROUNDS ?? 10);
const WARMUPS = 2;
const REPS = SMOKE ? 2 : 5;
const HOLD_MS = SMOKE ? 50 : 500;
const NAMES = ['splitter', 'parser', 'anthropic', 'openai', 'client', 'client-otel'] as const;
type Name = (typeof NAMES)[number];
// The ids the harness's adapter gives the client's turn.
const CHAT = '0b0e5f1e-5a8e-4c59-9d2a-6f1f4b1c2d3e';
const REQUEST = '4a7c9e2b-1d3f-4b5a-8c6d-7e8f9a0b1c2d';

const encoder = new TextEncoder();
const event = (name: string, data: unknown) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
const DELTA = encoder.encode(event('message.delta', { text: 'word ', replace: false }));
const START = encoder.encode(event('message.start', { id: 'msg_bench', model: 'bench-model' }));
const END = encoder.encode(event('message.end', { stop_reason: 'end_turn' }));
const OUR_START = encoder.encode(
  event('message.start', { chat_id: CHAT, message_id: 1, request_id: REQUEST }),
);
const completed = (deltas: number) =>
  encoder.encode(
    event('message.completed', {
      id: 1,
      chat_id: CHAT,
      role: 'assistant',
      content: 'word '.repeat(deltas),
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
    }),
  );
const isClient = (name: Name) => name === 'client' || name === 'client-otel';

/**
 * The body a contender reads: the harness's start, deltas and end written straight into one buffer (a 12 MB
 * string built first would leave its pages to the read, and lower the peak measured above them), cut into
 * seeded chunks that are views of it; for the client, rewritten as the harness's adapter rewrites it.
 */
function chunks(name: Name, deltas: number, seed: number): Uint8Array[] {
  const bytes = new Uint8Array(START.length + DELTA.length * deltas + END.length);
  bytes.set(START);
  let at = START.length;
  for (let i = 0; i < deltas; i++, at += DELTA.length) bytes.set(DELTA, at);
  bytes.set(END, at);
  const list = cut(bytes, seed);
  if (!isClient(name)) return list;
  const out: Uint8Array[] = [OUR_START];
  let skip = START.length;
  for (const chunk of list) {
    if (skip >= chunk.length) skip -= chunk.length;
    else {
      out.push(skip ? chunk.subarray(skip) : chunk);
      skip = 0;
    }
  }
  for (let drop = END.length; drop > 0; ) {
    const last = out.pop()!;
    if (last.length > drop) out.push(last.subarray(0, last.length - drop));
    drop -= last.length;
  }
  return [...out, ...cut(completed(deltas), SEED + 2)];
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
  if (isClient(name)) {
    const { Client } = await import('convo-sdk');
    const client = new Client({ baseUrl: 'http://bench.invalid', token: 'bench', maxRetries: 0, fetch });
    return async (body, sink) => {
      next = body;
      const stream = client.turns.stream(CHAT, { content: 'hi' }, { maxResumes: 0 });
      for await (const ev of stream) sink.take(ev);
      await stream.finalTurn();
    };
  }
  if (name === 'anthropic') {
    const { default: Anthropic } = await import('@anthropic-ai/sdk');
    const client = new Anthropic({ baseURL: 'http://bench.invalid', apiKey: 'bench', maxRetries: 0, fetch });
    return async (body, sink) => {
      next = body;
      const stream = await client.messages.create({ model: 'm', max_tokens: 16, messages, stream: true });
      for await (const data of stream) sink.take(data);
    };
  }
  if (name === 'openai') {
    const { default: OpenAI } = await import('openai');
    const client = new OpenAI({ baseURL: 'http://bench.invalid/v1', apiKey: 'bench', maxRetries: 0, fetch });
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
  const { splitData } = await import('./lib/split.ts');
  return (body, sink) => splitData(body, sink.take);
}

const expected = (deltas: number) => ({ events: deltas + 2, deltas, chars: deltas * 5 });

/** Child of the stream: reads on command; answers with the time and CPU time of each read, at the end its peak RSS. */
async function streamChild(name: Name): Promise<void> {
  const main = chunks(name, DELTAS, SEED);
  const warm = chunks(name, DELTAS / 10, SEED + 1);
  const consume = await consumer(name);
  globalThis.gc!();
  const before = process.memoryUsage.rss();
  const read = async (list: Uint8Array[], deltas: number): Promise<Answer> => {
    globalThis.gc!();
    const into = sink();
    const cpu = process.cpuUsage();
    const started = performance.now();
    await consume(bodyOf(list), into);
    const ms = performance.now() - started;
    const { user, system } = process.cpuUsage(cpu);
    const got = into.result();
    const want = expected(deltas);
    if (got.events !== want.events || got.deltas !== want.deltas || got.chars !== want.chars)
      throw new Error(`${name} read ${JSON.stringify(got)}, not ${JSON.stringify(want)}`);
    return { ms, cpu: (user + system) / 1000 };
  };
  serveParent({
    warm: async () => {
      for (let i = 0; i < WARMUPS; i++) await read(warm, DELTAS / 10);
      return {};
    },
    read: () => read(main, DELTAS),
    end: () => ({ peak: process.resourceUsage().maxRSS * 1024 - before, before }),
  });
}

/** One time to the first event: the body waits for the first read, then gets `start` 20 ms later. */
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

/** Child of the first event: a fresh process, its code as cold as a service's between turns. */
async function firstChild(name: Name): Promise<void> {
  const consume = await consumer(name);
  const start = isClient(name) ? OUR_START : START;
  const end = isClient(name) ? completed(0) : END;
  serveParent({
    warm: async () => {
      for (let i = 0; i < 2; i++) await firstEvent(consume, start, end, 20);
      return {};
    },
    first: async () => ({ ms: await firstEvent(consume, start, end, HOLD_MS) }),
    end: () => ({}),
  });
}

const spawn = (name: Name, mode: string) =>
  spawnChild(import.meta.filename, [mode, name], name === 'client-otel');

/** The times to the first event: fresh children, REPS rounds in a seeded order; the medians. */
async function firsts(): Promise<Record<Name, number>> {
  const kids = new Map<Name, Child>(NAMES.map((name) => [name, spawn(name, '--first')]));
  await Promise.all([...kids.values()].map((kid) => kid.ask()));
  for (const kid of kids.values()) await kid.ask('warm');
  const delays = new Map<Name, number[]>(NAMES.map((name) => [name, []]));
  const next = random(SEED + 3);
  for (let rep = 0; rep < REPS; rep++)
    for (const name of shuffle([...NAMES], next))
      delays.get(name)!.push((await kids.get(name)!.ask('first')).ms!);
  for (const kid of kids.values()) await kid.ask('end');
  return Object.fromEntries(NAMES.map((name) => [name, median(delays.get(name)!)])) as Record<Name, number>;
}

async function main(): Promise<BenchResult> {
  const kids = new Map<Name, Child>(NAMES.map((name) => [name, spawn(name, '--child')]));
  const pacer = spawn('splitter', '--child');
  await Promise.all([...kids.values(), pacer].map((kid) => kid.ask()));
  for (const kid of [...kids.values(), pacer]) await kid.ask('warm');
  const ratios = new Map<Name, number[]>(NAMES.map((name) => [name, []]));
  const times = new Map<Name, number[]>(NAMES.map((name) => [name, []]));
  const cpus = new Map<Name, number[]>(NAMES.map((name) => [name, []]));
  const next = random(SEED);
  for (let round = 0; round < ROUNDS; round++) {
    const order = shuffle([...NAMES], next);
    for (const name of order) {
      const paced = (await pacer.ask('read')).ms!;
      const { ms, cpu } = await kids.get(name)!.ask('read');
      ratios.get(name)!.push(ms! / paced);
      times.get(name)!.push(ms!);
      cpus.get(name)!.push(cpu!);
    }
    progress(`round ${round}: ${order.map((n) => `${n} ${times.get(n)!.at(-1)!.toFixed(0)} ms`).join(', ')}`);
  }
  const peaks = new Map<Name, Answer>();
  for (const [name, kid] of kids) peaks.set(name, await kid.ask('end'));
  await pacer.ask('end');
  const first = await firsts();

  const calibration = median(ratios.get('splitter')!);
  const label: Record<Name, string> = {
    splitter: 'hand-written splitter',
    parser: `eventsource-parser ${versionOf('eventsource-parser')} + JSON.parse, bare`,
    anthropic: `anchor: @anthropic-ai/sdk ${versionOf('@anthropic-ai/sdk')} messages.create({ stream: true })`,
    openai: `anchor: openai ${versionOf('openai')} chat.completions.create({ stream: true })`,
    client: 'client.turns.stream (injected fetch)',
    'client-otel': 'client.turns.stream, telemetry on (OpenTelemetry SDK registered)',
  };
  const target = (name: Name, ours: string, pass: boolean) =>
    name === 'client'
      ? { target: ours, pass }
      : {
          target:
            name === 'client-otel' ? '(telemetry on)' : name === 'splitter' ? '(reference)' : '(anchor)',
        };
  const BENCH = '11 the shared workload';
  const peak = (name: Name) => peaks.get(name)!.peak!;
  const cpu = (name: Name) => median(cpus.get(name)!);
  const figures: Record<string, number> = { 'sse.calibration': calibration };
  const rows: Row[] = [];
  for (const name of NAMES) {
    const ratio = summarize(ratios.get(name)!.map((r) => r / calibration));
    figures[`sse.time.${name}`] = ratio.median;
    figures[`sse.cpu.${name}`] = cpu(name) / cpu('splitter');
    rows.push({
      benchmark: BENCH,
      figure: `${label[name]}: 200k-delta stream, time (paired with the pacer)`,
      versus: `${name} vs splitter`,
      ratio,
      value:
        `${median(times.get(name)!).toFixed(0)} ms vs ${median(times.get('splitter')!).toFixed(0)} ms; ` +
        `CPU ${cpu(name).toFixed(0)} ms vs ${cpu('splitter').toFixed(0)} ms`,
      ...target(name, '≤ 1.3x', ratio.median <= 1.3),
    });
  }
  for (const name of NAMES) {
    figures[`sse.peakMB.${name}`] = peak(name) / 2 ** 20;
    rows.push({
      benchmark: BENCH,
      figure: `${label[name]}: peak RSS above the RSS after setup`,
      versus: `${name} vs anthropic`,
      value: `${mb(peak(name))} (anthropic ${mb(peak('anthropic'))})`,
      ...target(name, '≤ @anthropic-ai/sdk', peak(name) <= peak('anthropic')),
    });
  }
  for (const name of NAMES) {
    figures[`ttfe.ms.${name}`] = first[name];
    rows.push({
      benchmark: BENCH,
      figure: `${label[name]}: time to first event, body held open ${HOLD_MS} ms`,
      versus: `${name} vs anthropic`,
      value: `${first[name].toFixed(3)} ms vs ${first.anthropic.toFixed(3)} ms`,
      ...target(name, '≤ @anthropic-ai/sdk', first[name] <= first.anthropic),
    });
  }
  return {
    rows,
    figures,
    notes: [
      `Benchmark 11: ${DELTAS.toLocaleString('en')} deltas in chunks of 1-4096 bytes (mulberry32, seed 0xc0ffee, the ` +
        `harness's), each contender in its own process (${WARMUPS} warm-up reads of a tenth, ${ROUNDS} rounds, each ` +
        `read right after the pacer's); pacer calibration ${calibration.toFixed(2)}; RSS after setup ` +
        `${NAMES.map((n) => `${n} ${mb(peaks.get(n)!.before!)}`).join(', ')}. The client's body starts with the ` +
        `contract's \`message.start\` and ends with \`message.completed\` carrying the whole answer (${mb(completed(DELTAS).length)}), as the ` +
        "harness's adapter rewrites it (without the adapter's extra stream hop); the others read the harness's " +
        `bytes. Time to first event: fresh processes, median of ${REPS} rounds after 2 warm-up reads, every ` +
        'contender once a round in a seeded order.',
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
if (mode === '--child') await streamChild(name);
else if (mode === '--first') await firstChild(name);
else if (mode === '--alloc') await allocations(name);
else if (mode === '--reads') await reads(name, Number(count));
else emit(await main());
