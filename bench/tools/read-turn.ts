// Benchmark 9's children on their own, for A/B runs and profiles (build first: `npm run build`).
//   node bench/tools/read-turn.ts [--runs N] [--first] [--prof DIR] NAME...
// NAME is a contender of bench/stream-rss.ts (splitter, client, anthropic, openai), or DIR=NAME to run
// NAME with the package built in DIR (e.g. /tmp/before=client: DIR/dist must hold a build). Runs the
// contenders alternating, each in a fresh process, N times (default 9), and prints the median wall time
// and peak RSS of the read, and the median ratio to the first contender's in the same run (or, with --first, the median time to first event); --prof writes a
// .cpuprofile of each read (the read only, sampled every 100 µs) to DIR (summarize with bench/tools/top.mjs).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { anthropicWire, openaiWire } from '../lib/anchor-sse.ts';
import { deltaText, turnBytes } from '../lib/sse.ts';
import { median } from '../lib/stats.ts';

const DELTAS = 200_000;
const args = process.argv.slice(2);
const option = (name: string) => {
  const at = args.indexOf(name);
  return at < 0 ? undefined : args.splice(at, 2)[1];
};
const flag = (name: string) => {
  const at = args.indexOf(name);
  if (at >= 0) args.splice(at, 1);
  return at >= 0;
};
const runs = Number(option('--runs') ?? 9);
const prof = option('--prof');
const first = flag('--first');
const contenders = args.map((arg) => {
  const [root, name] = arg.includes('=') ? arg.split('=') : [process.cwd(), arg];
  return { label: arg, root: root!, name: name! };
});

const dir = mkdtempSync(join(tmpdir(), 'convo-read-'));
const content = Array.from({ length: DELTAS }, (_, i) => deltaText(i)).join('');
const files: Record<string, string> = {};
for (const [key, bytes] of [
  ['ours', turnBytes(DELTAS).bytes],
  ['anthropic', anthropicWire.turn(DELTAS, content)],
  ['openai', openaiWire.turn(DELTAS, content)],
] as const) {
  files[key] = join(dir, `${key}.sse`);
  writeFileSync(files[key], bytes);
}
const fileOf = (name: string) => files[name] ?? files.ours!;

const results = new Map(contenders.map((c) => [c.label, [] as Array<Record<string, number>>]));
try {
  for (let run = 0; run < runs; run++) {
    for (const c of contenders) {
      const script = join(c.root, 'bench/stream-rss.ts');
      const mode = first ? ['--first', c.name] : ['--read', c.name, fileOf(c.name)];
      const out = execFileSync(process.execPath, ['--expose-gc', script, ...mode], {
        cwd: c.root,
        encoding: 'utf8',
        env: prof ? { ...process.env, BENCH_PROFILE: prof } : process.env,
      });
      results.get(c.label)!.push(JSON.parse(out.trim().split('\n').at(-1)!));
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const base = results.get(contenders[0]!.label)!;
for (const [label, rows] of results) {
  const of = (key: string) => median(rows.map((r) => r[key]!));
  // Each run's figure over the first contender's in the same run: the paired ratio.
  const paired = (key: string) => median(rows.map((r, i) => r[key]! / base[i]![key]!)).toFixed(2);
  const all = (key: string, scale: number, digits: number) =>
    rows.map((r) => (r[key]! / scale).toFixed(digits)).join(' ');
  console.log(
    first
      ? `${label}: first event ${of('first').toFixed(3)} ms, ${paired('first')}x (${all('first', 1, 3)})`
      : `${label}: ${of('ms').toFixed(0)} ms, ${paired('ms')}x (${all('ms', 1, 0)}), ` +
          `peak ${(of('peak') / 1e6).toFixed(1)} MB, ${paired('peak')}x`,
  );
}
