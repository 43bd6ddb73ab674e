// Benchmark 5: a fresh Node process importing convo-sdk (the built dist) vs a bare Node process.
import { spawnSync } from 'node:child_process';
import { type BenchResult, emit } from './lib/result.ts';
import { median, progress, summarize } from './lib/stats.ts';

const RUNS = 10;
const root = new URL('..', import.meta.url);

/** Wall time of one process: start, evaluate `code` as ESM, exit. */
function run(code: string): number {
  const started = performance.now();
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', code], {
    cwd: root,
    stdio: 'inherit',
  });
  const ms = performance.now() - started;
  if (result.status !== 0) throw new Error(`exit ${result.status}: ${code}`);
  return ms;
}

async function main(): Promise<BenchResult> {
  const sides = { sdk: "import 'convo-sdk';", bare: '' };
  run(sides.sdk); // disk cache
  const times = { sdk: [] as number[], bare: [] as number[] };
  for (let i = 0; i < RUNS; i++) {
    const order = i % 2 ? (['bare', 'sdk'] as const) : (['sdk', 'bare'] as const);
    for (const side of order) times[side].push(run(sides[side]));
  }
  const [sdk, bare] = [median(times.sdk), median(times.bare)];
  const extra = sdk - bare;
  progress(`import convo-sdk ${sdk.toFixed(1)} ms, bare node ${bare.toFixed(1)} ms`);
  return {
    rows: [
      {
        benchmark: '5 cold import',
        figure: `fresh process importing convo-sdk (dist), median of ${RUNS}`,
        versus: 'import vs bare node',
        ratio: summarize(times.sdk.map((t, i) => t / times.bare[i]!)),
        value: `+${extra.toFixed(1)} ms (${sdk.toFixed(1)} vs ${bare.toFixed(1)} ms)`,
        target: '≤ +40 ms',
        pass: extra <= 40,
      },
    ],
    notes: [],
  };
}

emit(await main());
