// Benchmark 5: a fresh Node process importing convo-sdk (the built dist, resolved as an app resolves it), and
// importing it and creating a client, against a bare Node process; the same for the anchors and references,
// the shared harness's targets in its order (`node -e "await 0"`, the hand-written splitter, eventsource-parser
// and its stream API, openai and @anthropic-ai/sdk bare and creating a client). The harness's method:
// `node -e CODE` (the import awaited), the environment without NODE_OPTIONS or a compile cache, the child's
// output ignored, one untimed run of each first (the disk cache), then RUNS runs of each, every run visiting the
// targets in a seeded order (mulberry32 seeded 0x1a2b, the harness's, over the same list: the same order); the
// figure is the median minus bare Node's median.
import { spawnSync } from 'node:child_process';
import { versionOf } from './lib/anchors.ts';
import { cleanEnv } from './lib/child.ts';
import { type BenchResult, emit, type Row } from './lib/result.ts';
import { random } from './lib/sse.ts';
import { median, progress, SMOKE, shuffle, summarize } from './lib/stats.ts';

const RUNS = SMOKE ? 2 : 10;
const root = new URL('..', import.meta.url);
const env = cleanEnv();

/** Wall time of one process: start, evaluate `code`, exit. */
function run(code: string): number {
  const started = performance.now();
  const result = spawnSync(process.execPath, ['-e', code], {
    cwd: root,
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const ms = performance.now() - started;
  if (result.status !== 0) throw new Error(`exit ${result.status}: ${code}: ${result.stderr}`);
  return ms;
}

/** Issue 22's target: at most this many ms over bare Node, with a client created (issue 40). */
const TARGET_MS = 30;

const importOf = (specifier: string) => `await import(${JSON.stringify(specifier)})`;
/** The harness's targets, in its order (the order decides the seeded shuffles). */
const TARGETS = {
  bare: '',
  'esm-eval': 'await 0',
  splitter: importOf(new URL('./lib/splitter.mjs', import.meta.url).href),
  parser: importOf('eventsource-parser'),
  'parser-stream': importOf('eventsource-parser/stream'),
  openai: importOf('openai'),
  'openai+client': "const { default: OpenAI } = await import('openai'); new OpenAI({ apiKey: 'x' });",
  anthropic: importOf('@anthropic-ai/sdk'),
  'anthropic+client':
    "const { default: Anthropic } = await import('@anthropic-ai/sdk'); new Anthropic({ apiKey: 'x' });",
  sdk: importOf('convo-sdk'),
  'sdk+client':
    "const { Client } = await import('convo-sdk'); new Client({ baseUrl: 'http://x.invalid', token: 'x' });",
};
type Target = keyof typeof TARGETS;

async function main(): Promise<BenchResult> {
  const names = Object.keys(TARGETS) as Target[];
  for (const name of names) run(TARGETS[name]); // disk cache
  const times = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<Target, number[]>;
  const next = random(0x1a2b);
  for (let i = 0; i < RUNS; i++)
    for (const name of shuffle([...names], next)) times[name].push(run(TARGETS[name]));
  const bare = median(times.bare);
  const extra = (name: Target) => median(times[name]) - bare;
  progress(names.map((name) => `${name} ${median(times[name]).toFixed(1)} ms`).join(', '));
  const label: Record<Exclude<Target, 'bare'>, string> = {
    'esm-eval': 'reference: fresh process evaluating `await 0` (an ES module)',
    splitter: 'reference: fresh process importing the hand-written splitter',
    'parser-stream': `reference: fresh process importing eventsource-parser/stream ${versionOf('eventsource-parser')}`,
    sdk: 'fresh process importing convo-sdk (dist)',
    'sdk+client': 'fresh process importing convo-sdk and creating a Client',
    parser: `reference: fresh process importing eventsource-parser ${versionOf('eventsource-parser')}`,
    anthropic: `anchor: fresh process importing @anthropic-ai/sdk ${versionOf('@anthropic-ai/sdk')}`,
    'anthropic+client': 'anchor: the same, creating a client',
    openai: `anchor: fresh process importing openai ${versionOf('openai')}`,
    'openai+client': 'anchor: the same, creating a client',
  };
  const rows: Row[] = [];
  const figures: Record<string, number> = { 'import.bareMs': bare };
  for (const name of names.filter((n) => n !== 'bare') as Array<Exclude<Target, 'bare'>>) {
    const ours = name === 'sdk' || name === 'sdk+client';
    figures[`import.netMs.${name}`] = extra(name);
    rows.push({
      benchmark: '5 cold import',
      figure: `${label[name]}, median of ${RUNS}`,
      versus: 'vs bare node',
      ratio: summarize(times[name].map((t, i) => t / times.bare[i]!)),
      value: `+${extra(name).toFixed(1)} ms (${median(times[name]).toFixed(1)} vs ${bare.toFixed(1)} ms)`,
      ...(ours
        ? { target: `≤ +${TARGET_MS} ms`, pass: extra(name) <= TARGET_MS }
        : {
            target:
              name === 'anthropic' || name === 'openai' || name.includes('+') ? '(anchor)' : '(reference)',
          }),
    });
  }
  return { rows, notes: [], figures };
}

emit(await main());
