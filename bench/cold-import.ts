// Benchmark 5: a fresh Node process importing convo-sdk (the built dist) vs a bare Node process, and the
// same for the anchors (@anthropic-ai/sdk, openai) for scale.
import { spawnSync } from 'node:child_process';
import { versionOf } from './lib/anchors.ts';
import { type BenchResult, emit, type Row } from './lib/result.ts';
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

/** Issue 22's target: at most this many ms over bare Node. */
const TARGET_MS = 30;

async function main(): Promise<BenchResult> {
  const sides = {
    sdk: "import 'convo-sdk';",
    anthropic: "import '@anthropic-ai/sdk';",
    openai: "import 'openai';",
    bare: '',
  };
  const names = Object.keys(sides) as Array<keyof typeof sides>;
  for (const name of names) run(sides[name]); // disk cache
  const times = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<
    keyof typeof sides,
    number[]
  >;
  for (let i = 0; i < RUNS; i++) {
    // Each run starts with another side, so that no side always follows the same one.
    const order = [...names.slice(i % names.length), ...names.slice(0, i % names.length)];
    for (const side of order) times[side].push(run(sides[side]));
  }
  const bare = median(times.bare);
  const extra = (name: keyof typeof sides) => median(times[name]) - bare;
  progress(names.map((name) => `${name} ${median(times[name]).toFixed(1)} ms`).join(', '));
  const row = (name: keyof typeof sides, figure: string, versus: string): Row => ({
    benchmark: '5 cold import',
    figure: `${figure}, median of ${RUNS}`,
    versus,
    ratio: summarize(times[name].map((t, i) => t / times.bare[i]!)),
    value: `+${extra(name).toFixed(1)} ms (${median(times[name]).toFixed(1)} vs ${bare.toFixed(1)} ms)`,
    ...(name === 'sdk'
      ? { target: `≤ +${TARGET_MS} ms`, pass: extra(name) <= TARGET_MS }
      : { target: '(anchor)' }),
  });
  return {
    rows: [
      row('sdk', 'fresh process importing convo-sdk (dist)', 'import vs bare node'),
      row(
        'anthropic',
        `anchor: fresh process importing @anthropic-ai/sdk ${versionOf('@anthropic-ai/sdk')}`,
        'import vs bare node',
      ),
      row('openai', `anchor: fresh process importing openai ${versionOf('openai')}`, 'import vs bare node'),
    ],
    notes: [],
  };
}

emit(await main());
