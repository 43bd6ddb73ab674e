// Sets the figures of the shared harness (its results/*.json) beside the same figures of `npm run bench`
// (bench/results/*.json) and says, per figure, whether the two agree within 15%. Run both on the same machine,
// close together in time, then: npm run bench:agree [-- --harness DIR,... --ours DIR,... --tolerance 0.15]
// Several folders a side (e.g. three runs: the harness's results/ copied after each, bench/results/runs/*):
// each figure is then the median of the folders' values, the medians of three that BENCHMARKS.md quotes.
// DIR defaults: the harness's results in $ANCHORS_DIR/results, else ../shared/bench-anchors/results beside
// this checkout; ours in bench/results. Every harness file is read (--since ISO-DATE: only those written since);
// where several hold a figure (a full run and an --only run), the newest does. Exits 1 when a figure both hold
// disagrees.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { median } from '../lib/stats.ts';

const args = process.argv.slice(2);
const option = (name: string) => {
  const at = args.indexOf(name);
  return at === -1 ? undefined : args[at + 1];
};
const root = new URL('../..', import.meta.url).pathname;
const harnessDirs = (
  option('--harness') ??
  (process.env.ANCHORS_DIR
    ? join(process.env.ANCHORS_DIR, 'results')
    : join(root, '../shared/bench-anchors/results'))
).split(',');
const oursDirs = (option('--ours') ?? join(root, 'bench/results')).split(',');
const tolerance = Number(option('--tolerance') ?? 0.15);
const since = option('--since') ?? '';

/** A figure's value and where it came from. */
interface Found {
  value: number;
  date: string;
  load: string;
  file: string;
}

function readJson(dir: string): Array<{ file: string; json: Record<string, unknown> }> {
  if (!existsSync(dir)) throw new Error(`no results in ${dir}`);
  return readdirSync(dir)
    .filter((file) => file.endsWith('.json'))
    .map((file) => ({ file, json: JSON.parse(readFileSync(join(dir, file), 'utf8')) }));
}

/** The harness's contender names, as this bench's figure keys name them. */
const NAME: Record<string, string> = {
  'hand-splitter': 'splitter',
  'esp-createParser': 'parser',
  'esp-stream': 'parser-stream',
  // The cold import's `esm eval: node -e "await 0"` row, by its first word.
  esm: 'esm-eval',
  anthropic: 'anthropic',
  openai: 'openai',
  ours: 'client',
  'convo-sdk': 'client',
};
type Result = Record<string, unknown> & { name: string };

/** The figures one harness file holds, by this bench's keys. */
function harnessFigures(json: Record<string, unknown>): Record<string, number> {
  const results = (json.results ?? []) as Result[];
  const out: Record<string, number> = {};
  for (const r of results) {
    const key = NAME[r.name];
    if (typeof r.timeRatioVsHand === 'number' && key) {
      out[`sse.time.${key}`] = r.timeRatioVsHand;
      out[`sse.cpu.${key}`] = r.cpuRatioVsHand as number;
      out[`sse.peakMB.${key}`] = r.peakRssDeltaMB as number;
    } else if (typeof r.medianDelayMs === 'number' && key) out[`ttfe.ms.${key}`] = r.medianDelayMs;
    else if (typeof r.ratioVsRaw === 'number' && key) {
      const ours = key === 'client' ? (String(r.path).endsWith('/chats') ? 'create' : 'get') : key;
      out[`request.ratio.${ours}`] = r.ratioVsRaw;
    } else if (typeof r.gzipBytes === 'number' && key)
      out[`bundle.oneFileKB.${key === 'client' ? 'sdk' : key}`] = r.gzipBytes / 1000;
    else if (typeof r.netMs === 'number') {
      const [name, client] = r.name.split(' ');
      const base = NAME[name!] === 'client' ? 'sdk' : NAME[name!];
      if (base) out[`import.netMs.${base}${client === '+client' ? '+client' : ''}`] = r.netMs;
    } else if (typeof r.cpuPerDeliveredEventUs === 'number' && key) {
      const n = r.n as number;
      out[`concurrent@${n}.cpuPerEventUs.${key}`] = r.cpuPerDeliveredEventUs;
      out[`concurrent@${n}.heapPerStreamKB.${key}`] = r.heapPerStreamKB as number;
      out[`concurrent@${n}.peakPerStreamKB.${key}`] = r.memPerStreamKB as number;
    }
  }
  return out;
}

const newest = (into: Map<string, Found>, key: string, found: Found) => {
  const had = into.get(key);
  if (!had || had.date < found.date) into.set(key, found);
};

/**
 * Each contender's first event as a multiple of @anthropic-ai/sdk's in the same run: issue 40's target is
 * relative to it, and a process's own offset (the same for every contender in it) cancels out.
 */
function relative(into: Map<string, Found>): void {
  const anchor = into.get('ttfe.ms.anthropic');
  if (!anchor) return;
  for (const [key, found] of [...into]) {
    if (!key.startsWith('ttfe.ms.') || key === 'ttfe.ms.anthropic') continue;
    into.set(key.replace('ttfe.ms.', 'ttfe.xAnthropic.'), { ...found, value: found.value / anchor.value });
  }
}

/** Per folder, the newest value of each figure; over the folders, the median (the files and dates listed). */
function overDirs(dirs: string[], read: (dir: string, into: Map<string, Found>) => void): Map<string, Found> {
  const maps = dirs.map((dir) => {
    const into = new Map<string, Found>();
    read(dir, into);
    relative(into);
    return into;
  });
  const out = new Map<string, Found>();
  for (const key of new Set(maps.flatMap((map) => [...map.keys()]))) {
    const found = maps.map((map) => map.get(key)).filter((f): f is Found => f !== undefined);
    out.set(key, {
      value: median(found.map((f) => f.value)),
      date: found.map((f) => f.date.slice(0, 16)).join(', '),
      load: [...new Set(found.map((f) => f.load))].join('; '),
      file: found.map((f) => f.file).join(', '),
    });
  }
  return out;
}

const harness = overDirs(harnessDirs, (dir, into) => readHarness(dir, into));
const ours = overDirs(oursDirs, (dir, into) => readOurs(dir, into));

function readHarness(dir: string, harness: Map<string, Found>): void {
  for (const { file, json } of readJson(dir)) {
    const machine = (json.machine ?? {}) as {
      date?: string;
      loadavgAtStart?: number[];
      loadavgAtEnd?: number[];
    };
    if ((machine.date ?? '') < since) continue;
    const load = `${machine.loadavgAtStart?.join(' / ') ?? '?'} → ${machine.loadavgAtEnd?.join(' / ') ?? '?'}`;
    for (const [key, value] of Object.entries(harnessFigures(json)))
      newest(harness, key, { value, date: machine.date ?? '', load, file });
  }
}

function readOurs(dir: string, ours: Map<string, Found>): void {
  for (const { file, json } of readJson(dir)) {
    const { date, loadavg, figures, smoke } = json as {
      date: string;
      loadavg: { start: string; end: string };
      figures: Record<string, number>;
      smoke: boolean;
    };
    if (smoke)
      console.log(`${file}: a --smoke run (tiny parameters): its figures say nothing of the real ones`);
    const streams = figures['concurrent.n'];
    for (const [key, value] of Object.entries(figures ?? {})) {
      if (key === 'concurrent.n') continue;
      // Concurrent figures compare at the same number of streams only.
      const at =
        key.startsWith('concurrent.') && streams ? key.replace('concurrent.', `concurrent@${streams}.`) : key;
      newest(ours, at, { value, date, load: `${loadavg.start} → ${loadavg.end}`, file });
    }
  }
}

const rows: string[][] = [];
let agreeing = 0;
let compared = 0;
for (const key of [...harness.keys()].filter((k) => ours.has(k)).sort()) {
  const h = harness.get(key)!;
  const o = ours.get(key)!;
  const near = Math.abs(h.value) < (key.startsWith('import.') ? 5 : 1e-9);
  const diff = (o.value - h.value) / Math.abs(h.value);
  const agree = !near && Math.abs(diff) <= tolerance;
  if (!near) {
    compared++;
    if (agree) agreeing++;
  }
  rows.push([
    key,
    h.value.toFixed(3),
    o.value.toFixed(3),
    near ? '' : `${diff >= 0 ? '+' : ''}${(diff * 100).toFixed(0)}%`,
    near ? 'n/a (near zero)' : agree ? 'yes' : 'NO',
    `${h.file} ${h.date}`,
    `${o.file} ${o.date}`,
  ]);
}
const header = [
  'figure',
  'harness',
  'npm run bench',
  'difference',
  `within ${tolerance * 100}%`,
  'harness file',
  'ours',
];
const widths = header.map((_, i) => Math.max(...[header, ...rows].map((r) => r[i]!.length)));
for (const [i, row] of [header, ...rows].entries()) {
  console.log(row.map((cell, j) => cell.padEnd(widths[j]!)).join('  '));
  if (i === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '));
}
const loads = (map: Map<string, Found>) => [...new Set([...map.values()].map((f) => f.load))].join('; ');
console.log(`\nharness (${harnessDirs.join(', ')}) load averages: ${loads(harness)}`);
console.log(`npm run bench (${oursDirs.join(', ')}) load averages: ${loads(ours)}`);
const missing = [...ours.keys()].filter((k) => !harness.has(k));
if (missing.length) console.log(`only in npm run bench: ${missing.join(', ')}`);
console.log(`${agreeing} of ${compared} figures agree within ${tolerance * 100}%`);
process.exitCode = agreeing === compared ? 0 : 1;
