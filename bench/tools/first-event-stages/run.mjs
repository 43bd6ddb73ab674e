// Bundles stages.ts from the sources (it reaches inside the stream layer, which dist does not export) and
// runs it: node bench/tools/first-event-stages/run.mjs
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';

const out = join(mkdtempSync(join(tmpdir(), 'first-event-')), 'stages.mjs');
await build({
  entryPoints: [join(import.meta.dirname, 'stages.ts')],
  bundle: true,
  platform: 'node',
  format: 'esm',
  outfile: out,
  logLevel: 'error',
});
execFileSync(process.execPath, [out], { stdio: 'inherit' });
