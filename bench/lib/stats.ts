import { Bench } from 'tinybench';

export { shuffle } from './seeded.mjs';

/** A ratio contender/baseline over several rounds: the median, and the spread (min and max of the rounds). */
export interface Ratio {
  median: number;
  min: number;
  max: number;
  rounds: number;
}

/** `npm run bench -- --smoke` (BENCH_SMOKE=1): tiny parameters, to check that a benchmark runs end to end. */
export const SMOKE = process.env.BENCH_SMOKE === '1';

/** Median of `values` (not sorted in place). */
export function median(values: number[]): number {
  return quantile(values, 0.5);
}

/** Linear-interpolated quantile `q` (0..1) of `values`. */
export function quantile(values: number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const at = (sorted.length - 1) * q;
  const low = Math.floor(at);
  const high = Math.ceil(at);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (at - low);
}

/** The ratio summary of per-round ratios. */
export function summarize(ratios: number[]): Ratio {
  return {
    median: median(ratios),
    min: Math.min(...ratios),
    max: Math.max(...ratios),
    rounds: ratios.length,
  };
}

export interface Contest {
  /** The baseline, then the contenders, by name. */
  baseline: [string, () => unknown];
  contenders: Array<[string, () => unknown]>;
  /** Counted rounds (one more uncounted round warms up first). */
  rounds: number;
  /** Runs of each side per round (the round's figure is the median run). */
  iterations: number;
  /** Collect garbage before each run (needs `--expose-gc`), so that one side's garbage is not the other's pause. */
  gc?: boolean;
  /** Called after each round with each side's median time, for progress lines. */
  onRound?: (round: number, times: Record<string, number>) => void;
}

/** Per contender: the ratio to the baseline and its median time (ms); `baselineMs` too. */
export interface ContestResult {
  ratios: Record<string, Ratio>;
  times: Record<string, number>;
  baselineMs: number;
}

/**
 * Runs baseline and contenders with tinybench, one small Bench per round, rotating which goes first, and
 * returns for each contender the median of its per-round ratios of median latencies to the baseline's.
 */
export async function contest(options: Contest): Promise<ContestResult> {
  const all = [options.baseline, ...options.contenders];
  const ratios = new Map<string, number[]>(options.contenders.map(([name]) => [name, []]));
  const times = new Map<string, number[]>(all.map(([name]) => [name, []]));
  for (let round = 0; round <= options.rounds; round++) {
    const bench = new Bench({ iterations: options.iterations, time: 0, warmup: false, throws: true });
    const shift = round % all.length;
    const gc = options.gc ? globalThis.gc : undefined;
    if (options.gc && !gc) throw new Error('run with --expose-gc');
    for (const [name, fn] of [...all.slice(shift), ...all.slice(0, shift)]) {
      bench.add(name, fn, gc ? { beforeEach: () => gc() } : {});
    }
    await bench.run();
    const p50 = (name: string) => {
      const result = bench.getTask(name)!.result as { latency?: { p50: number } };
      if (!result.latency) throw new Error(`tinybench gave no latency for ${name}`);
      return result.latency.p50;
    };
    const round_ = Object.fromEntries(all.map(([name]) => [name, p50(name)]));
    options.onRound?.(round, round_);
    if (round === 0) continue; // warm-up round: JIT and caches
    for (const [name] of all) times.get(name)!.push(round_[name]!);
    for (const [name] of options.contenders)
      ratios.get(name)!.push(round_[name]! / round_[options.baseline[0]]!);
  }
  return {
    ratios: Object.fromEntries([...ratios].map(([name, r]) => [name, summarize(r)])),
    times: Object.fromEntries([...times].map(([name, t]) => [name, median(t)])),
    baselineMs: median(times.get(options.baseline[0])!),
  };
}

/** `1.23x (1.20–1.31)` */
export function formatRatio(ratio: Ratio): string {
  return `${ratio.median.toFixed(2)}x (${ratio.min.toFixed(2)}–${ratio.max.toFixed(2)})`;
}

/** Megabytes with one decimal. */
export function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** Progress goes to stderr, so that stdout carries only the result. */
export function progress(message: string): void {
  process.stderr.write(`  ${message}\n`);
}
