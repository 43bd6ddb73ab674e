// Bundles a bench tool written in TypeScript from the sources (it may reach inside layers dist does not
// export) into a temporary file and runs it on this Node with `args`; the bundle is removed after.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { build } from 'esbuild';

/** Bundles `entry` (a .ts path) and runs it with `args`, its output on this process's. */
export async function runBundled(entry, args = []) {
  const dir = mkdtempSync(join(tmpdir(), 'convo-bench-'));
  try {
    const out = join(dir, `${basename(entry, '.ts')}.mjs`);
    await build({
      entryPoints: [entry],
      bundle: true,
      platform: 'node',
      format: 'esm',
      outfile: out,
      logLevel: 'error',
    });
    execFileSync(process.execPath, [out, ...args], { stdio: 'inherit' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
