import type { Ratio } from './stats.ts';

/** One line of the table. */
export interface Row {
  /** Which benchmark (1 to 7). */
  benchmark: string;
  /** What is measured. */
  figure: string;
  /** Contender vs baseline, as run. */
  versus: string;
  /** Contender / baseline, when the figure is a ratio. */
  ratio?: Ratio | undefined;
  /** The absolute figures behind it. */
  value: string;
  target: string;
  /** Whether the target is met; undefined for figures without a target. */
  pass?: boolean | undefined;
}

/** What a benchmark process prints as its last stdout line. */
export interface BenchResult {
  rows: Row[];
  notes: string[];
  /**
   * The figures as numbers, by a stable key (`sse.time.client`, `request.ratio.anthropic`, ...), for
   * bench/tools/agree.ts to set beside the shared harness's: run.ts writes them to bench/results/last-run.json.
   */
  figures?: Record<string, number>;
}

export function emit(result: BenchResult): void {
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
