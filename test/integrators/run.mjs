// `npm run test:integrators [-- APP...]`: the packed package in integrators' own setups (apps.mjs). Takes the
// tarball once (harness `pack`: dist/ as built, or CONVO_SDK_TARBALL), installs every app from it into its own
// scratch folder under the OS tmpdir as an integrator's `npm install` does (no overrides, no
// --legacy-peer-deps), all side by side (installs wait on the network), then runs the rows one at a time.
// One line per row with its time, then `N passed, N failed`; exits non-zero on any failure.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { duration, installInto, pack, tail } from '../runtimes/harness.mjs';
import { apps } from './apps.mjs';

const only = process.argv.slice(2);
const selected = only.length ? apps.filter((app) => only.includes(app.name)) : apps;
if (selected.length === 0) {
  console.error(`unknown app(s) ${only.join(' ')}; known: ${apps.map((app) => app.name).join(' ')}`);
  process.exit(2);
}

const started = performance.now();
const scratch = mkdtempSync(join(tmpdir(), 'convo-sdk-integrators-'));
let passed = 0;
let failed = 0;
const width = Math.max(...selected.flatMap((app) => app.rows.map((row) => row.name.length)));

function report(name, ms, why, summary) {
  const took = duration(ms).padStart(7);
  if (why) {
    failed += 1;
    console.log(`FAIL ${name.padEnd(width)} ${took}`);
    for (const line of why.split('\n')) console.log(`       | ${line}`);
  } else {
    passed += 1;
    console.log(`PASS ${name.padEnd(width)} ${took}  ${summary}`);
  }
}

try {
  const tarball = join(scratch, await pack(scratch));
  console.log(`took ${tarball} in ${duration(Math.round(performance.now() - started))}`);
  const installs = selected.map((app) => installInto(`convo-sdk-${app.name}-`, [tarball, ...app.packages]));
  // Each is awaited in turn below; this keeps a failure that comes before its turn from counting as unhandled.
  for (const install of installs) install.catch(() => undefined);
  for (const [index, app] of selected.entries()) {
    let project;
    let setupError = '';
    try {
      project = await installs[index];
      // A peer of convo-sdk that does not resolve is ours to fix (another package's, such as msw 2.0.0's
      // TypeScript range, is not).
      if (/peer\S* \S+ from convo-sdk@/.test(project.output)) {
        throw new Error(`npm install warned:\n${tail(project.output)}`);
      }
      app.setup(project.dir);
      console.log(`installed ${app.name} (${app.packages.join(' ')}) in ${duration(project.ms)}`);
    } catch (error) {
      setupError = `${app.name}: ${error?.message ?? error}`;
    }
    for (const row of app.rows) {
      const rowStarted = performance.now();
      let why = setupError;
      let summary = '';
      if (!why) {
        try {
          summary = await row.test(project.dir);
        } catch (error) {
          why = String(error?.message ?? error);
        }
      }
      report(row.name, Math.round(performance.now() - rowStarted), why, summary);
    }
    project?.remove();
  }
} catch (error) {
  failed += 1;
  console.log(`FAIL setup: ${error?.stack ?? error}`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
console.log(`integrators: took ${duration(Math.round(performance.now() - started))}`);
// The plain closing line CI reads.
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed === 0 ? 0 : 1;
