// `npm run check:package`: the shape of the package as published, from the tarball of dist/ as built (no
// rebuild): publint, strict, and attw with its default profile, every resolution it knows (node10, node16
// from CommonJS and from ESM, bundler) for every subpath.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packBuilt } from './dist.mjs';

const dir = mkdtempSync(join(tmpdir(), 'convo-sdk-check-'));
try {
  const tarball = packBuilt(dir);
  for (const [tool, ...args] of [
    ['publint', '--strict', tarball],
    ['attw', tarball],
  ]) {
    const result = spawnSync('npm', ['exec', '--', tool, ...args], { stdio: 'inherit' });
    if (result.status !== 0) process.exitCode = 1;
  }
} catch (error) {
  console.error(error.message);
  process.exitCode = 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
