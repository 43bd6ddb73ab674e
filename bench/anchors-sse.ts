// Benchmark 11: the shared harness's stream workload, anchors beside, measured the way that harness measures
// it (its own code here, bench/lib/*.mjs), so that the two agree (bench/tools/agree.ts). The same bytes as the
// harness: its `message.start`, 200,000 deltas `{"text":"word ","replace":false}` and `message.end`, cut into
// chunks of 1-4096 bytes by mulberry32 seeded 0xc0ffee, one chunk per pull. The client reads them through the
// rewrite the harness's adapter makes (bench/lib/spec-stream.mjs: one more ReadableStream, the contract's
// `message.start` in place of the harness's, the same chunks, `message.completed` with the whole answer, 1 MB
// cut with the seed + 2, in place of `message.end`). Every contender hands each event's parsed payload to the
// same sink (count the events, fold `{ text, replace }`).
// The stream: each contender in its own plain-JavaScript `node --expose-gc` process (bench/lib/sse-child.mjs;
// "client, telemetry on" too, the OpenTelemetry SDK registered in its process), started one after another;
// each builds the body, makes its consumer, collects garbage and takes its RSS, then does two warm-up reads of
// a tenth (cut with the seed + 1); then a pacer (a second splitter process) is started and warmed; then ROUNDS
// rounds, the harness's contenders once a round in the harness's seeded order (then the client with telemetry
// on), each read right after a pacer read: the time ratio is the median of contender/pacer over the rounds,
// divided by the splitter's own (the pacer calibration). Peak RSS above the start = the process's maxRSS at the
// end minus its RSS after setup.
// The time to the first event: all contenders in one plain-JavaScript process, as in the harness: the body waits
// for the first read, one start event is enqueued 20 ms later, the body stays open HOLD_MS; two warm-up rounds
// held 20 ms, then REPS rounds in the harness's seeded order; the median. The client with telemetry on: the
// same in a second process with the OpenTelemetry SDK registered.
// `node --expose-gc bench/anchors-sse.ts --firsts` prints the times to the first event alone (beside the
// harness's `bench:ttfe`); `--alloc NAME` prints what one read of NAME allocates instead;
// `--reads NAME N` only reads NAME's body N times (for an instruction count).

import { versionOf } from './lib/anchors.ts';
import { type Answer, type Child, spawnChild } from './lib/child.ts';
import { consumer } from './lib/contenders.mjs';
import { type BenchResult, emit, type Row } from './lib/result.ts';
import { completedChunks } from './lib/spec-stream.mjs';
import { bodyOf, random } from './lib/sse.ts';
import { mb, median, progress, SMOKE, shuffle, summarize } from './lib/stats.ts';
import { createSink, harnessChunks, SEED } from './lib/workload.mjs';

const DELTAS = SMOKE ? 2_000 : 200_000;
const ROUNDS = SMOKE ? 2 : Number(process.env.BENCH_ROUNDS ?? 10);
const WARMUPS = 2;
const REPS = SMOKE ? 2 : 5;
const HOLD_MS = SMOKE ? 50 : 500;
/** The harness's contenders of `bench:sse -- --only hand-splitter,esp-createParser,anthropic,openai,ours`, in its order. */
const HARNESS = ['splitter', 'parser', 'openai', 'anthropic', 'client'] as const;
const NAMES = [...HARNESS, 'client-otel'] as const;
type Name = (typeof NAMES)[number];
/** The harness's contenders of `bench:ttfe`, in its order (eventsource-parser's stream API too). */
const FIRSTS = ['splitter', 'parser', 'parser-stream', 'openai', 'anthropic', 'client'] as const;
type First = (typeof FIRSTS)[number] | 'client-otel';
const CHILD = new URL('./lib/sse-child.mjs', import.meta.url).pathname;

/** A contender's stream process; the client with telemetry on is the client's, the OpenTelemetry SDK registered. */
const spawn = (name: Name) =>
  spawnChild(
    CHILD,
    ['--child', name === 'client-otel' ? 'client' : name, String(DELTAS)],
    name === 'client-otel',
  );

/** The times to the first event: one process for all (a second, telemetry on, for the client's); the medians. */
async function firsts(): Promise<Record<First, number>> {
  const delays = async (telemetry: boolean) => {
    const kid = spawnChild(CHILD, ['--first', FIRSTS.join(','), String(DELTAS)], telemetry, false);
    await kid.ask();
    const answer = (await kid.ask('first', { reps: REPS, hold: HOLD_MS })) as unknown as Record<
      string,
      number[]
    >;
    await kid.ask('end');
    return answer;
  };
  const off = await delays(false);
  const on = await delays(true);
  return {
    ...(Object.fromEntries(FIRSTS.map((name) => [name, median(off[name]!)])) as Record<First, number>),
    'client-otel': median(on.client!),
  };
}

async function main(): Promise<BenchResult> {
  // Started one after another, so that their imports do not compete for the cores; then warmed in turn.
  const kids = new Map<Name, Child>();
  const inputs = new Set<string>();
  for (const name of NAMES) {
    const kid = spawn(name);
    kids.set(name, kid);
    inputs.add(String((await kid.ask()).digest));
  }
  if (inputs.size !== 1) throw new Error(`the contenders read different bodies: ${[...inputs].join(', ')}`);
  for (const kid of kids.values()) await kid.ask('warm', WARMUPS);
  const pacer = spawn('splitter');
  await pacer.ask();
  await pacer.ask('warm', WARMUPS);
  const ratios = new Map<Name, number[]>(NAMES.map((name) => [name, []]));
  const times = new Map<Name, number[]>(NAMES.map((name) => [name, []]));
  const cpus = new Map<Name, number[]>(NAMES.map((name) => [name, []]));
  const next = random(SEED ^ 0x5eed);
  for (let round = 0; round < ROUNDS; round++) {
    const order: Name[] = [...shuffle([...HARNESS], next), 'client-otel'];
    for (const name of order) {
      const paced = (await pacer.ask('read')).ms!;
      const { ms, cpu } = await kids.get(name)!.ask('read');
      ratios.get(name)!.push(ms! / paced);
      times.get(name)!.push(ms!);
      cpus.get(name)!.push(cpu!);
    }
    progress(`round ${round}: ${order.map((n) => `${n} ${times.get(n)!.at(-1)!.toFixed(0)} ms`).join(', ')}`);
  }
  await pacer.ask('end');
  const peaks = new Map<Name, Answer>();
  for (const [name, kid] of kids) peaks.set(name, await kid.ask('end'));
  const first = await firsts();

  const calibration = median(ratios.get('splitter')!);
  const label: Record<First, string> = {
    splitter: 'hand-written splitter',
    parser: `eventsource-parser ${versionOf('eventsource-parser')} + JSON.parse, bare`,
    'parser-stream': `eventsource-parser ${versionOf('eventsource-parser')} EventSourceParserStream + JSON.parse`,
    anthropic: `anchor: @anthropic-ai/sdk ${versionOf('@anthropic-ai/sdk')} messages.create({ stream: true })`,
    openai: `anchor: openai ${versionOf('openai')} chat.completions.create({ stream: true })`,
    client: 'client.turns.stream (injected fetch)',
    'client-otel': 'client.turns.stream, telemetry on (OpenTelemetry SDK registered)',
  };
  const target = (name: First, ours: string, pass: boolean) =>
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
  for (const name of [...FIRSTS, 'client-otel'] as const) {
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
      `Benchmark 11: ${DELTAS.toLocaleString('en')} deltas in chunks of 1-4096 bytes (mulberry32, seed 0xc0ffee, ` +
        `the harness's; input digest ${[...inputs][0]}), each contender in its own plain-JavaScript process ` +
        `(${WARMUPS} warm-up reads of a tenth, ${ROUNDS} rounds in the harness's seeded order, each read right after ` +
        `the pacer's); pacer calibration ${calibration.toFixed(2)}; RSS after setup ` +
        `${NAMES.map((n) => `${n} ${mb(peaks.get(n)!.before!)}`).join(', ')}. The client reads the harness's body ` +
        "through the harness adapter's rewrite (one more stream: the contract's `message.start`, the same chunks, " +
        `\`message.completed\` carrying the whole answer, ${mb(completedChunks(DELTAS).reduce((n, c) => n + c.length, 0))}); ` +
        `the others read the harness's bytes. Time to first event: all contenders in one process, median of ${REPS} ` +
        "rounds in the harness's seeded order after 2 warm-up rounds; the client with telemetry on in a second such process.",
    ],
  };
}

/**
 * `--alloc NAME`: what one read of contender NAME allocates, garbage included (the inspector's sampling heap
 * profiler, one sample per 4 KB, keeping what minor and major GCs collected), after one warm-up read: bytes
 * per delta in all and by function, the largest first. Deterministic where times are not (a busy machine).
 */
async function allocations(name: First): Promise<void> {
  const { Session } = await import('node:inspector/promises');
  const list = harnessChunks(DELTAS, SEED);
  const consume = await consumer(name, [DELTAS]);
  await consume(bodyOf(list), createSink().onEvent);
  globalThis.gc!();
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: 4096,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  await consume(bodyOf(list), createSink().onEvent);
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
async function reads(name: First, count: number): Promise<void> {
  const list = harnessChunks(DELTAS, SEED);
  const consume = await consumer(name, [DELTAS]);
  for (let i = 0; i < count; i++) await consume(bodyOf(list), createSink().onEvent);
}

const [mode, name, count] = process.argv.slice(2) as [string | undefined, First, string | undefined];
if (mode === '--firsts') console.log(await firsts());
else if (mode === '--alloc') await allocations(name);
else if (mode === '--reads') await reads(name, Number(count));
else emit(await main());
