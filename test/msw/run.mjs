// `npm run test:msw`: the packed package next to each msw major it claims (the floor of its peer range and
// the newest of each major), installed as an integrator would (no overrides, no --legacy-peer-deps), then
// test/msw/integrator.test.mjs under `node --test` and a strict type-check of an msw setup against that
// version's declarations. One line per version, then `N passed, N failed`; exits non-zero on any failure.
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { duration, installInto, pack, root, run, tail } from '../runtimes/harness.mjs';

/** The msw versions installed: the lowest the peer range allows, and the newest 2.x and 3.x. */
const VERSIONS = ['2.0.0', '2', '3'];
const PER_VERSION_MS = 60_000;

const range = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).peerDependencies.msw;
if (range !== '^2.0.0 || ^3.0.0') {
  console.error(`the msw peer range is ${range}: update VERSIONS in test/msw/run.mjs to match it`);
  process.exit(2);
}

const TYPED = `import { Client } from 'convo-sdk';
import { createMock } from 'convo-sdk/mock';
import { mswHandlers } from 'convo-sdk/msw';
import { type HttpHandler, http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
const mock = createMock();
const handlers: HttpHandler[] = [...mswHandlers(mock, { baseUrl: 'https://convo.test' })];
const server = setupServer(...handlers, http.get('https://other.test/', () => HttpResponse.json({})));
const client = new Client({ baseUrl: 'https://convo.test', token: 'mock-token' });
void server;
void client;
`;

const started = performance.now();
const scratch = mkdtempSync(join(tmpdir(), 'convo-sdk-msw-'));
let passed = 0;
let failed = 0;
try {
  const tarball = join(scratch, await pack(scratch));
  // The installs wait on the registry more than on the CPU: they run side by side, the tests one by one.
  const installs = VERSIONS.map((version) => installInto('convo-sdk-msw-', [tarball, `msw@${version}`]));
  // Each is awaited below; this keeps a failure that comes before its turn from counting as unhandled.
  for (const install of installs) install.catch(() => undefined);
  for (const [index, version] of VERSIONS.entries()) {
    const rowStarted = performance.now();
    let project;
    let why = '';
    let summary = '';
    try {
      project = await installs[index];
      // msw's own postinstall warning is msw's; one about convo-sdk, or a peer conflict, is ours.
      if (/ERESOLVE|convo-sdk@\S+ \(/.test(project.output))
        why = `npm install warned:\n${tail(project.output)}`;
      const installed = JSON.parse(
        readFileSync(join(project.dir, 'node_modules', 'msw', 'package.json'), 'utf8'),
      ).version;
      copyFileSync(
        join(import.meta.dirname, 'integrator.test.mjs'),
        join(project.dir, 'integrator.test.mjs'),
      );
      const test = await run(process.execPath, ['--test', '--test-reporter=tap', 'integrator.test.mjs'], {
        cwd: project.dir,
        timeoutMs: PER_VERSION_MS,
      });
      if (test.code !== 0) why ||= `node --test exit ${test.code ?? test.signal}:\n${tail(test.stdout, 30)}`;
      writeFileSync(join(project.dir, 'typed.mts'), TYPED);
      const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
      const typed = await run(
        process.execPath,
        [
          tsc,
          '--noEmit',
          '--strict',
          '--exactOptionalPropertyTypes',
          '--module',
          'nodenext',
          '--target',
          'es2022',
          '--skipLibCheck',
          'typed.mts',
        ],
        { cwd: project.dir, timeoutMs: PER_VERSION_MS },
      );
      if (typed.code !== 0) why ||= `type-check failed:\n${tail(typed.stdout)}`;
      const tests = /# pass (\d+)/.exec(test.stdout)?.[1] ?? '0';
      summary = `msw ${installed}: ${tests} tests passed, types check (install ${duration(project.ms)})`;
    } catch (error) {
      why = String(error?.message ?? error);
    } finally {
      project?.remove();
    }
    const took = duration(Math.round(performance.now() - rowStarted)).padStart(7);
    if (why) {
      failed += 1;
      console.log(`FAIL msw@${version.padEnd(5)} ${took}`);
      for (const line of why.split('\n')) console.log(`       | ${line}`);
    } else {
      passed += 1;
      console.log(`PASS msw@${version.padEnd(5)} ${took}  ${summary}`);
    }
  }
} catch (error) {
  failed += 1;
  console.log(`FAIL setup: ${error?.stack ?? error}`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
console.log(
  `msw: ${passed} passed, ${failed} failed in ${duration(Math.round(performance.now() - started))}`,
);
if (failed) process.exitCode = 1;
