// Runs every benchmark, each in a fresh Node process, prints one table and writes it into BENCHMARKS.md
// (between the markers; the prose around them is kept). Usage: npm run bench [-- name ...]
// A benchmark in OWN_SECTION has its own markers, so that running it alone keeps every other row.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, release, totalmem, type } from 'node:os';
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
];
const OWN_SECTION = new Set(['stream-rss', 'ai-mapping', 'anchors-sse', 'telemetry']);
const file = new URL('../BENCHMARKS.md', import.meta.url);

const only = process.argv.slice(2);
const ran = BENCHES.filter((b) => only.length === 0 || only.includes(b));
/** Rows and notes by section: '' for the main table, else the benchmark's name. */
const sections = new Map<string, { rows: Row[]; notes: string[] }>();
const started = performance.now();
for (const name of ran) {
  const key = OWN_SECTION.has(name) ? name : '';
  if (!sections.has(key)) sections.set(key, { rows: [], notes: [] });
  const { rows, notes } = sections.get(key)!;
  process.stderr.write(`${name}\n`);
  const script = new URL(`./${name}.ts`, import.meta.url).pathname;
  const run = spawnSync(process.execPath, ['--expose-gc', script], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 16 * 1024 * 1024,
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
}
const seconds = (performance.now() - started) / 1000;

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
const cpu = cpus();
const machine =
  `${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${cpu.length} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB RAM, ` +
  `${type()} ${release()}, Node ${process.versions.node}`;
const command = only.length === 0 ? 'npm run bench' : `npm run bench -- ${only.join(' ')}`;

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
    `Command: \`${command}\` (builds, then \`node --expose-gc bench/run.ts\`), ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${seconds.toFixed(0)} s.`,
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
writeFileSync(file, text);
console.log(
  `\n${machine}; ${seconds.toFixed(0)} s; ${[...sections.keys()].every(complete) ? 'written to BENCHMARKS.md' : 'the main table only printed (a partial run)'}`,
);
