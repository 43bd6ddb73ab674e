// Shared by the runtime matrix (run.mjs), the msw matrix (test/msw/run.mjs) and the browser test
// (test/browser/run.mjs): pack the package, install the tarball into a fresh consumer project, start that
// project's `convo-mock`, run commands with a deadline, and make sure every child process is gone when the
// script ends.
// Plain ESM JavaScript on purpose: it runs on the pinned Node (process.execPath under npm) as is.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packBuilt } from '../../scripts/dist.mjs';

/** The repository root. */
export const root = fileURLToPath(new URL('../..', import.meta.url));

/** Every child still running; killed (its whole process group) when this process exits. */
const children = new Set();

function killGroup(child, signal) {
  try {
    // Each child is started as the leader of its own process group (detached), so this ends the
    // processes it started too (npm -> sh -> node), and nothing else.
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

process.once('exit', () => {
  for (const child of children) killGroup(child, 'SIGKILL');
});
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    for (const child of children) killGroup(child, 'SIGKILL');
    process.exit(130);
  });
}

function track(command, args, options) {
  const child = spawn(command, args, { ...options, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

/**
 * Runs a command to its end, within `timeoutMs`. Resolves `{ code, signal, stdout, stderr, ms, timedOut }`;
 * never rejects for a non-zero exit (the caller decides), rejects only when the command cannot start.
 */
export function run(command, args, { cwd = root, env = process.env, timeoutMs = 60_000 } = {}) {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = track(command, args, { cwd, env });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child, 'SIGKILL');
    }, timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, ms: Math.round(performance.now() - started), timedOut });
    });
  });
}

/** Like `run`, but throws with the command's output when it fails. */
export async function mustRun(command, args, options) {
  const result = await run(command, args, options);
  if (result.code !== 0) {
    const why = result.timedOut
      ? `timed out after ${result.ms} ms`
      : `exited with ${result.code ?? result.signal}`;
    throw new Error(`${command} ${args.join(' ')} ${why}\n${tail(result.stderr || result.stdout)}`);
  }
  return result;
}

/** The last lines of a command's output, for a failure message. */
export function tail(text, lines = 15) {
  return text.trimEnd().split('\n').slice(-lines).join('\n');
}

/**
 * Puts the package's tarball into `dir` and resolves its name: dist/ packed as built, without rebuilding it
 * (the npm scripts build first when it is stale), or the tarball CI packed once (CONVO_SDK_TARBALL).
 */
export async function pack(dir) {
  return basename(packBuilt(dir));
}

/**
 * Installs `packages` (a tarball path among them) into a new temporary consumer project, the way an
 * integrator's `npm install` does: no overrides, no --legacy-peer-deps. Resolves `{ dir, output, ms, remove }`.
 */
export async function installInto(prefix, packages) {
  const started = performance.now();
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  try {
    writeFileSync(
      join(dir, 'package.json'),
      `${JSON.stringify({ name: 'consumer', private: true, type: 'module' }, null, 2)}\n`,
    );
    const { stdout, stderr } = await mustRun(
      'npm',
      ['install', '--no-audit', '--no-fund', '--prefer-offline', ...packages],
      { cwd: dir, timeoutMs: 180_000 },
    );
    return { dir, output: stdout + stderr, ms: Math.round(performance.now() - started), remove };
  } catch (error) {
    remove();
    throw error;
  }
}

/**
 * Packs the package and installs the tarball into a new temporary project, as an integrator's
 * `npm install convo-sdk` would. Returns `{ dir, tarball, ms, remove }`.
 */
export async function packAndInstall(prefix = 'convo-sdk-consumer-') {
  const started = performance.now();
  const dir = mkdtempSync(join(tmpdir(), prefix));
  try {
    const tarball = await pack(dir);
    const project = await installInto(prefix, [join(dir, tarball)]);
    return { ...project, tarball, ms: Math.round(performance.now() - started) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Starts the installed package's own `convo-mock` (the packed bin; or `cli`, another build of it) on the
 * pinned Node with `--port 0`, and reads the URL it prints. Resolves `{ url, stop, output }` within
 * `timeoutMs`, or rejects with its output.
 */
export function startMock(
  projectDir,
  args = [],
  { timeoutMs = 15_000, cli = join(projectDir, 'node_modules', 'convo-sdk', 'dist', 'mock', 'cli.js') } = {},
) {
  const child = track(process.execPath, [cli, '--host', '127.0.0.1', '--port', '0', ...args], {
    cwd: projectDir,
    env: process.env,
  });
  let output = '';
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    killGroup(child, 'SIGTERM');
    const timer = setTimeout(() => killGroup(child, 'SIGKILL'), 3_000);
    await exited;
    clearTimeout(timer);
  };
  return new Promise((resolve, reject) => {
    const fail = (why) => {
      clearTimeout(timer);
      stop().then(() => reject(new Error(`convo-mock ${why}\n${tail(output)}`)));
    };
    const timer = setTimeout(() => fail(`printed no URL within ${timeoutMs} ms`), timeoutMs);
    child.stderr.setEncoding('utf8').on('data', (chunk) => {
      output += chunk;
    });
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      output += chunk;
      const match = /http:\/\/127\.0\.0\.1:\d+/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ url: match[0], stop, output: () => output });
      }
    });
    child.once('error', (error) => fail(`could not start: ${error.message}`));
    child.once('exit', (code, signal) => fail(`exited with ${code ?? signal} before printing its URL`));
  });
}

/** Milliseconds as a short string: `850 ms`, `4.2 s`. */
export function duration(ms) {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}
