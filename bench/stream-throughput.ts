// Benchmark 1: stream reader throughput, and each reader's peak memory (in a fresh process each).
import { execFileSync } from 'node:child_process';
import { getHeapStatistics } from 'node:v8';
import { viaClient, viaParser, viaSplitter, viaTurnStream } from './lib/readers.ts';
import { type BenchResult, emit } from './lib/result.ts';
import { bodyOf, cut, turnBytes } from './lib/sse.ts';
import { contest, formatRatio, mb, median, progress } from './lib/stats.ts';

const DELTAS = 200_000;
const SEED = 20261122;
const READERS = { client: viaClient, turnstream: viaTurnStream, parser: viaParser, splitter: viaSplitter };
type ReaderName = keyof typeof READERS;

const { bytes, content } = turnBytes(DELTAS);
const chunks = cut(bytes, SEED);

async function read(name: ReaderName, onPull?: () => void, from = chunks): Promise<void> {
  const text = await READERS[name](bodyOf(from, onPull));
  if (text !== content) throw new Error(`${name} folded the wrong text`);
}

/** Child mode: one reader once, sampling the heap on every pull; prints the peak above the fixture. */
async function peak(name: ReaderName): Promise<void> {
  const gc = globalThis.gc!;
  gc();
  const base = getHeapStatistics().used_heap_size;
  let top = base;
  await read(name, () => {
    const used = getHeapStatistics().used_heap_size;
    if (used > top) top = used;
  });
  process.stdout.write(`${JSON.stringify({ peak: top - base })}\n`);
}

/** The median of three fresh processes: a peak that counts garbage depends on when the GC ran. */
function peakOf(name: ReaderName): number {
  const peaks = [0, 1, 2].map(() => {
    const out = execFileSync(process.execPath, ['--expose-gc', import.meta.filename, '--peak', name], {
      encoding: 'utf8',
    });
    return (JSON.parse(out.trim().split('\n').at(-1)!) as { peak: number }).peak;
  });
  return median(peaks);
}

async function main(): Promise<BenchResult> {
  const mbps = (ms: number) => `${(bytes.length / 1024 / 1024 / (ms / 1000)).toFixed(0)} MB/s`;
  progress(`${DELTAS} deltas, ${mb(bytes.length)} in ${chunks.length} chunks of 1-4096 bytes`);
  const result = await contest({
    baseline: ['splitter', () => read('splitter')],
    contenders: [
      ['client', () => read('client')],
      ['turnstream', () => read('turnstream')],
      ['parser', () => read('parser')],
    ],
    rounds: 7,
    iterations: 3,
    gc: true,
    onRound: (round, t) =>
      progress(
        `round ${round}: ${Object.entries(t)
          .map(([n, ms]) => `${n} ${ms.toFixed(0)} ms`)
          .join(', ')}`,
      ),
  });
  // The same turn with the deltas spaced as json.dumps writes them, as a service in Python would send them.
  const spaced = cut(turnBytes(DELTAS, true).bytes, SEED);
  const spacedResult = await contest({
    baseline: ['splitter', () => read('splitter', undefined, spaced)],
    contenders: [['client', () => read('client', undefined, spaced)]],
    rounds: 5,
    iterations: 3,
    gc: true,
    onRound: (round, t) =>
      progress(
        `spaced round ${round}: client ${t.client!.toFixed(0)} ms, splitter ${t.splitter!.toFixed(0)} ms`,
      ),
  });
  const peaks = Object.fromEntries(
    (Object.keys(READERS) as ReaderName[]).map((name) => [name, peakOf(name)]),
  );
  const ms = (name: string) => `${result.times[name]!.toFixed(0)} ms, ${mbps(result.times[name]!)}`;
  const client = result.ratios.client!;
  const turnstream = result.ratios.turnstream!;
  const memory = peaks.client! / peaks.splitter!;
  return {
    rows: [
      {
        benchmark: '1 stream throughput',
        figure: 'client.turns.stream (injected fetch; validate + fold, text kept) vs hand-written splitter',
        versus: "(a') vs (c)",
        ratio: client,
        value: `${ms('client')} vs ${ms('splitter')}`,
        target: '≤ 1.5x',
        pass: client.median <= 1.5,
      },
      {
        benchmark: '1 stream throughput',
        figure: 'peak heap: client.turns.stream vs hand-written splitter (median of 3 processes)',
        versus: "(a') vs (c)",
        ratio: undefined,
        value: `${memory.toFixed(2)}x: ${mb(peaks.client!)} vs ${mb(peaks.splitter!)}`,
        target: '≤ 1.5x',
        pass: memory <= 1.5,
      },
      {
        benchmark: '1 stream throughput',
        figure: 'RelayedTurnStream.fromReadableStream (validate + fold) vs hand-written splitter',
        versus: '(a) vs (c)',
        ratio: turnstream,
        value: `${ms('turnstream')} vs ${ms('splitter')}`,
        target: '(reference)',
      },
      {
        benchmark: '1 stream throughput',
        figure: 'client.turns.stream, deltas spaced as json.dumps writes them',
        versus: "(a') vs (c)",
        ratio: spacedResult.ratios.client,
        value: `${spacedResult.times.client!.toFixed(0)} ms vs ${spacedResult.baselineMs.toFixed(0)} ms`,
        target: '(reference)',
      },
      {
        benchmark: '1 stream throughput',
        figure: 'eventsource-parser + JSON.parse vs hand-written splitter',
        versus: '(b) vs (c)',
        ratio: result.ratios.parser,
        value: `${ms('parser')} vs ${ms('splitter')}`,
        target: '(reference)',
      },
      {
        benchmark: '1 stream throughput',
        figure: 'peak heap while reading (above the fixture, garbage included; median of 3 processes)',
        versus: "(a') / (a) / (b) / (c)",
        ratio: undefined,
        value: `${mb(peaks.client!)} / ${mb(peaks.turnstream!)} / ${mb(peaks.parser!)} / ${mb(peaks.splitter!)}`,
        target: '(reported)',
      },
    ],
    notes: [
      `Benchmark 1 reads ${DELTAS.toLocaleString('en')} message.delta events plus message.start and message.completed ` +
        `(${mb(bytes.length)}; the terminal event carries the whole answer) cut into ${chunks.length} seeded ` +
        `random chunks of 1-4096 bytes; client.turns.stream/splitter ${formatRatio(client)}.`,
    ],
  };
}

const at = process.argv.indexOf('--peak');
if (at !== -1) await peak(process.argv[at + 1] as ReaderName);
else emit(await main());
