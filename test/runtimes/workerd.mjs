// The workerd row of the runtime matrix, run on the pinned Node by run.mjs in the project that installed the
// tarball, with CONVO_BASE_URL and CONVO_API_TOKEN set: bundles worker.mjs as a worker bundler does,
// serves it with workerd (workerd.capnp), requests it once and prints the worker's summary line. Exits
// non-zero on any failure, with workerd's output. workerd is this process's child, in its process group,
// so run.mjs's deadline ends it too.
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { binaries, RUNTIME_PACKAGES } from './install.mjs';

const runtime = `workerd ${RUNTIME_PACKAGES.workerd}`;
// Inside the project, which run.mjs removes.
const dir = join(process.cwd(), 'workerd');

/** Resolves the port workerd reports on its control descriptor (fd 3) once its socket listens. */
function listeningPort(child, timeoutMs) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`workerd did not listen within ${timeoutMs} ms`)),
      timeoutMs,
    );
    let control = '';
    child.stdio[3].setEncoding('utf8').on('data', (chunk) => {
      const lines = (control + chunk).split('\n');
      control = lines.pop();
      for (const line of lines) {
        const message = JSON.parse(line);
        if (message.event === 'listen' && message.socket === 'http') {
          clearTimeout(timer);
          resolve(message.port);
        }
      }
    });
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`workerd could not start: ${error.message}`));
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`workerd exited with ${code ?? signal} before listening`));
    });
  });
}

let workerd;
let output = '';
try {
  mkdirSync(dir, { recursive: true });
  // What wrangler resolves for a worker: the package's `default` build (dist/bundler), never the Node one.
  // The neutral platform fails the build if the entry pulls in a Node builtin.
  const bundle = await esbuild.build({
    entryPoints: ['worker.mjs'],
    outfile: join(dir, 'worker.js'),
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['browser', 'module', 'main'],
    target: 'es2022',
    metafile: true,
    logLevel: 'silent',
  });
  const inputs = Object.keys(bundle.metafile.inputs);
  if (!inputs.includes('node_modules/convo-sdk/dist/bundler/index.js')) {
    throw new Error(`the bundle did not take convo-sdk's bundler build: ${inputs.join(', ')}`);
  }
  copyFileSync(join(import.meta.dirname, 'workerd.capnp'), join(dir, 'workerd.capnp'));

  workerd = spawn(binaries.workerd, ['serve', 'workerd.capnp', '--control-fd=3'], {
    cwd: dir,
    env: { ...process.env, WORKERD_VERSION: RUNTIME_PACKAGES.workerd },
    stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
  });
  for (const stream of [workerd.stdout, workerd.stderr]) {
    stream.setEncoding('utf8').on('data', (chunk) => {
      output += chunk;
    });
  }
  const port = await listeningPort(workerd, 15_000);
  // The worker's turn is cut after 20 s (scenario.mjs): this bounds the rest.
  const response = await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(30_000) });
  const text = await response.text();
  if (response.status === 200 && text.startsWith('ok ')) {
    console.log(text);
  } else {
    console.error(`the worker answered ${response.status}:\n${text}`);
    process.exitCode = 1;
  }
} catch (error) {
  console.error(`FAIL ${runtime}: ${error?.stack ?? error}`);
  process.exitCode = 1;
} finally {
  if (workerd?.pid && workerd.exitCode === null && workerd.signalCode === null) {
    const exited = new Promise((resolve) => workerd.once('exit', resolve));
    workerd.kill('SIGKILL');
    await exited;
  }
}
if (process.exitCode && output) console.error(`workerd's output:\n${output.trimEnd()}`);
