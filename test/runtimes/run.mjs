// `npm run test:runtimes [-- NAME...]`: runs smoke.mjs on Node 22, Node 24 (the project's pin), Bun and Deno,
// and worker.mjs in workerd, each against its own `convo-mock`, from one project that installed the packed
// tarball. One line per runtime, then a `N passed, N failed` line; exits non-zero on any failure.
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { duration, packAndInstall, root, run, startMock, tail } from './harness.mjs';
import { binaries, ensureRuntimes } from './install.mjs';

const TOKEN = 'smoke-token';
const PER_RUNTIME_MS = 60_000;

const runtimes = [
  { name: 'node22', command: binaries.node, args: ['smoke.mjs'] },
  // The pinned Node 24: npm runs this script on it.
  { name: 'node24', command: process.execPath, args: ['smoke.mjs'] },
  { name: 'bun', command: binaries.bun, args: ['smoke.mjs'] },
  // Deno reads the project's package.json and resolves `convo-sdk` from its node_modules as npm laid it
  // out (--node-modules-dir=manual); -A grants env and network access.
  { name: 'deno', command: binaries.deno, args: ['run', '-A', '--node-modules-dir=manual', 'smoke.mjs'] },
  // Cloudflare's Workers runtime: workerd.mjs bundles worker.mjs, serves it with workerd and requests it.
  { name: 'workerd', command: process.execPath, args: [join(import.meta.dirname, 'workerd.mjs')] },
];

// The Node 24 row is the project's pin, which npm puts first on PATH for its scripts: check it is the one.
const pinned = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).devDependencies.node;
if (process.versions.node !== pinned) {
  console.error(
    `npm is running Node ${process.versions.node}, not the pinned ${pinned}: run "npm install" first`,
  );
  process.exit(1);
}

const only = process.argv.slice(2);
const selected = only.length ? runtimes.filter((r) => only.includes(r.name)) : runtimes;
if (selected.length === 0) {
  console.error(`unknown runtime(s) ${only.join(' ')}; known: ${runtimes.map((r) => r.name).join(' ')}`);
  process.exit(2);
}

const started = performance.now();
let project;
let passed = 0;
let failed = 0;
try {
  console.log(await ensureRuntimes());
  project = await packAndInstall('convo-sdk-runtimes-');
  console.log(`packed ${project.tarball} and installed it into ${project.dir} in ${duration(project.ms)}`);
  for (const file of ['smoke.mjs', 'scenario.mjs', 'worker.mjs']) {
    copyFileSync(join(import.meta.dirname, file), join(project.dir, file));
  }

  for (const runtime of selected) {
    const mock = await startMock(project.dir, ['--token', TOKEN]);
    let result;
    try {
      result = await run(runtime.command, runtime.args, {
        cwd: project.dir,
        timeoutMs: PER_RUNTIME_MS,
        env: {
          ...process.env,
          CONVO_BASE_URL: mock.url,
          CONVO_API_TOKEN: TOKEN,
          DENO_NO_UPDATE_CHECK: '1',
          DENO_NO_PROMPT: '1',
          NO_COLOR: '1',
        },
      });
    } finally {
      await mock.stop();
    }
    const summary = result.stdout.trim().split('\n').at(-1) ?? '';
    if (result.code === 0 && summary.startsWith('ok ')) {
      passed += 1;
      console.log(`PASS ${runtime.name.padEnd(7)} ${duration(result.ms).padStart(7)}  ${summary}`);
    } else {
      failed += 1;
      const why = result.timedOut
        ? `timed out after ${duration(result.ms)}`
        : `exit ${result.code ?? result.signal}`;
      console.log(`FAIL ${runtime.name.padEnd(7)} ${duration(result.ms).padStart(7)}  ${why}`);
      console.log(tail(`${result.stdout}\n${result.stderr}`, 25).replace(/^/gm, '       | '));
    }
  }
} catch (error) {
  failed += 1;
  console.log(`FAIL setup: ${error?.stack ?? error}`);
} finally {
  project?.remove();
}
console.log(`runtimes: took ${duration(Math.round(performance.now() - started))}`);
// The plain closing line CI reads.
console.log(`runtimes: ${passed} passed, ${failed} failed`);
process.exitCode = failed === 0 && passed === selected.length ? 0 : 1;
