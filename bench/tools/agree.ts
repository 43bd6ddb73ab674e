// Sets the figures of the shared harness (its results/*.json) beside the same figures of `npm run bench`
// (bench/results/*.json) and says, per figure, whether the two agree within 15%. Run both on the same machine,
// close together in time, then: node bench/tools/agree.ts [--harness DIR] [--ours DIR] [--tolerance 0.15]
// DIR defaults: the harness's results in $ANCHORS_DIR/results, else ../shared/bench-anchors/results beside
// this checkout; ours in bench/results. Every harness file is read (--since ISO-DATE: only those written since);
// where several hold a figure (a full run and an --only run), the newest does. Exits 1 when a figure both hold
// disagrees.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const args = process.argv.slice(2);
const option = (name: string) => {
  const at = args.indexOf(name);
  return at === -1 ? undefined : args[at + 1];
};
const root = new URL('../..', import.meta.url).pathname;
const harnessDir =
  option('--harness') ??
  (process.env.ANCHORS_DIR
    ? join(process.env.ANCHORS_DIR, 'results')
    : join(root, '../shared/bench-anchors/results'));
const oursDir = option('--ours') ?? join(root, 'bench/results');
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

const harness = new Map<string, Found>();
for (const { file, json } of readJson(harnessDir)) {
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
const ours = new Map<string, Found>();
for (const { file, json } of readJson(oursDir)) {
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
    `${h.file} ${h.date.slice(0, 16)}`,
    `${o.file} ${o.date.slice(0, 16)}`,
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
console.log(`\nharness (${harnessDir}) load averages: ${loads(harness)}`);
console.log(`npm run bench (${oursDir}) load averages: ${loads(ours)}`);
const missing = [...ours.keys()].filter((k) => !harness.has(k));
if (missing.length) console.log(`only in npm run bench: ${missing.join(', ')}`);
console.log(`${agreeing} of ${compared} figures agree within ${tolerance * 100}%`);
process.exitCode = agreeing === compared ? 0 : 1;
