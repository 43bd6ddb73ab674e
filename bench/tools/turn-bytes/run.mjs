// Bundles heap.ts from the sources and runs it: node bench/tools/turn-bytes/run.mjs [--unbounded]
// (--unbounded reads with the largest maxTurnBytes, 2^29: near V8's string limit, which it must not reach).
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';

const out = join(mkdtempSync(join(tmpdir(), 'turn-bytes-')), 'heap.mjs');
await build({
  entryPoints: [join(import.meta.dirname, 'heap.ts')],
  bundle: true,
  platform: 'node',
  format: 'esm',
  outfile: out,
  logLevel: 'error',
});
execFileSync(process.execPath, [out, ...process.argv.slice(2)], { stdio: 'inherit' });
