// Runs every benchmark, each in a fresh Node process, prints one table and writes it into BENCHMARKS.md
// (between the markers; the prose around them is kept), and each benchmark's figures as numbers into
// bench/results/NAME.json and bench/results/runs/DATE/NAME.json (for bench/tools/agree.ts). Usage: npm run bench [-- [--smoke] name ...]
// A benchmark in OWN_SECTION has its own markers, so that running it alone keeps every other row.
// --smoke runs the benchmarks of the shared workloads (SMOKE_BENCHES) with tiny parameters, to check that
// they run end to end: it prints the tables, writes bench/results/smoke/ and leaves BENCHMARKS.md alone.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, release, totalmem, type } from 'node:os';
import type { BenchResult, Row } from './lib/result.ts';
import { formatRatio } from './lib/stats.ts';

const BENCHES = [
  'stream-throughput',
  'first-event',
  'request-overhead',
  'bundle-size',
  'cold-import',
  'long-stream',
  'resume-fold',
  'mock-load',
  'stream-rss',
  'ai-mapping',
  'anchors-sse',
  'telemetry',
  'anchors-request',
  'concurrent-streams',
];
/** The benchmarks from stream-rss on have a section each; those before it share the main table. */
const OWN_SECTION = new Set(BENCHES.slice(BENCHES.indexOf('stream-rss')));
/** The benchmarks of the shared harness's workloads, anchors beside: the ones --smoke runs. */
const SMOKE_BENCHES = ['anchors-sse', 'anchors-request', 'concurrent-streams', 'bundle-size', 'cold-import'];
const file = new URL('../BENCHMARKS.md', import.meta.url);

const args = process.argv.slice(2);
const smoke = args.includes('--smoke');
const only = args.filter((arg) => !arg.startsWith('--'));
const ran = BENCHES.filter(
  (b) => (only.length === 0 || only.includes(b)) && (!smoke || SMOKE_BENCHES.includes(b)),
);
const results = new URL(smoke ? './results/smoke/' : './results/', import.meta.url);
// Each full run's figures are kept too, in a folder of its own, for the medians of three runs (agree.ts).
const kept = new URL(
  `./results/runs/${new Date().toISOString().slice(0, 16).replace(':', '')}/`,
  import.meta.url,
);
for (const dir of smoke ? [results] : [results, kept]) mkdirSync(dir, { recursive: true });
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ');
const loadAtStart = load();
/** Rows and notes by section: '' for the main table, else the benchmark's name. */
const sections = new Map<string, { rows: Row[]; notes: string[] }>();
const started = performance.now();
for (const name of ran) {
  const key = OWN_SECTION.has(name) ? name : '';
  if (!sections.has(key)) sections.set(key, { rows: [], notes: [] });
  const { rows, notes } = sections.get(key)!;
  process.stderr.write(`${name}\n`);
  const script = new URL(`./${name}.ts`, import.meta.url).pathname;
  const loadBefore = load();
  const run = spawnSync(process.execPath, ['--expose-gc', script], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 16 * 1024 * 1024,
    env: { ...process.env, BENCH_SMOKE: smoke ? '1' : '' },
  });
  const line = run.stdout.trim().split('\n').at(-1);
  if (run.status !== 0 || !line) {
    rows.push({
      benchmark: name,
      figure: `failed (exit ${run.status})`,
      versus: '',
      value: '',
      target: '',
      pass: false,
    });
    continue;
  }
  const result = JSON.parse(line) as BenchResult;
  rows.push(...result.rows);
  notes.push(...result.notes);
  for (const dir of result.figures ? (smoke ? [results] : [results, kept]) : [])
    writeFileSync(
      new URL(`${name}.json`, dir),
      `${JSON.stringify(
        {
          benchmark: name,
          date: new Date().toISOString(),
          machine: machineOf(),
          loadavg: { start: loadBefore, end: load() },
          smoke,
          figures: result.figures,
        },
        null,
        2,
      )}\n`,
    );
}
const seconds = (performance.now() - started) / 1000;
const loadAtEnd = load();

const cells = (row: Row) => [
  row.benchmark,
  row.figure,
  row.versus,
  row.ratio ? formatRatio(row.ratio) : '',
  row.value,
  row.target,
  row.pass === undefined ? '' : row.pass ? 'yes' : 'NO',
];
const header = [
  'Benchmark',
  'Figure',
  'Contender vs baseline',
  'Ratio, median (min–max)',
  'Absolute',
  'Target',
  'Met',
];
const machine = machineOf();
const command = args.length === 0 ? 'npm run bench' : `npm run bench -- ${args.join(' ')}`;

let text = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n';
// A section is rewritten only when every benchmark of it ran: a partial run of the main table prints its
// rows and leaves the file's table, measured together, as it was.
const complete = (key: string) => key !== '' || BENCHES.every((b) => OWN_SECTION.has(b) || ran.includes(b));
for (const [key, { rows, notes }] of sections) {
  const start = key ? `<!-- bench:${key}:start -->` : '<!-- bench:start -->';
  const end = key ? `<!-- bench:${key}:end -->` : '<!-- bench:end -->';
  const markdown = [
    `| ${header.join(' | ')} |`,
    `|${header.map(() => '---').join('|')}|`,
    ...rows.map((row) => `| ${cells(row).join(' | ')} |`),
  ].join('\n');
  const section = [
    start,
    `Command: \`${command}\` (builds, then \`node --expose-gc bench/run.ts\`), ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${seconds.toFixed(0)} s; load average (1 / 5 / 15 min) ${loadAtStart} at the start, ${loadAtEnd} at the end.`,
    '',
    `Machine: ${machine}.`,
    '',
    markdown,
    '',
    ...notes.map((note) => `- ${note}`),
    end,
  ].join('\n');
  const at = text.indexOf(start);
  const to = text.indexOf(end);
  if (complete(key))
    text =
      at !== -1 && to > at
        ? text.slice(0, at) + section + text.slice(to + end.length)
        : `${text.trimEnd()}\n\n${section}\n`;

  // The table on the terminal, columns padded.
  const table = [header, ...rows.map(cells)];
  const widths = header.map((_, i) => Math.max(...table.map((r) => r[i]!.length)));
  for (const [i, r] of table.entries()) {
    console.log(r.map((cell, j) => cell.padEnd(widths[j]!)).join('  '));
    if (i === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  }
  for (const note of notes) console.log(`- ${note}`);
}
if (!smoke) writeFileSync(file, text);
const written = smoke
  ? 'a smoke run: BENCHMARKS.md left as it was'
  : [...sections.keys()].every(complete)
    ? 'written to BENCHMARKS.md'
    : 'its own sections written to BENCHMARKS.md, the main table only printed (a partial run)';
console.log(
  `\n${machine}; load average ${loadAtStart} at the start, ${loadAtEnd} at the end; ${seconds.toFixed(0)} s; ${written}; figures in ${results.pathname}`,
);

/** The machine, as each section and each results file names it. */
function machineOf(): string {
  const cpu = cpus();
  return (
    `${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${cpu.length} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB RAM, ` +
    `${type()} ${release()}, Node ${process.versions.node}`
  );
}
