// The built package, dist/, built once and used as it is: tests and scripts check it, pack it or build it
// only when it is missing or older than its sources, and never rebuild it behind another's back (the build
// empties dist/ first, so a build during a test run hands other tests a half-built package).
//   node scripts/dist.mjs check      exits 1, saying why, when dist/ is incomplete or stale
//   node scripts/dist.mjs build      builds when dist/ is incomplete or stale (`npm run example`, `npm run mock`)
//   node scripts/dist.mjs pack DIR   packs dist/ as it is into DIR, prints the tarball's path
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(fileURLToPath(import.meta.url), '../..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

/** Every file the manifest points at (exports, main, module, types, typesVersions, bin). */
function builtFiles() {
  const files = new Set();
  const collect = (value) => {
    if (typeof value === 'string') {
      if (value.startsWith('./dist/') || value.startsWith('dist/')) files.add(value.replace(/^\.\//, ''));
    } else if (value && typeof value === 'object') {
      for (const inner of Object.values(value)) collect(inner);
    }
  };
  collect([manifest.exports, manifest.main, manifest.module, manifest.types, manifest.typesVersions]);
  collect(manifest.bin);
  return [...files];
}

/** Every file under src/. */
function* sources(dir = join(root, 'src')) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(path);
    else yield path;
  }
}

/** Why dist/ cannot be used as it is (incomplete, or older than a source), or undefined when it can. */
export function distProblem() {
  const built = builtFiles();
  const missing = built.filter((file) => !existsSync(join(root, file)));
  if (missing.length > 0) return `dist/ is missing ${missing.slice(0, 3).join(', ')}: run \`npm run build\``;
  const oldest = Math.min(...built.map((file) => statSync(join(root, file)).mtimeMs));
  const inputs = [
    ...sources(),
    ...[
      'tsup.config.ts',
      'package.json',
      'tsconfig.json',
      'scripts/openapi.ts',
      'scripts/openapi-examples.ts',
      'scripts/openapi.mjs',
    ].map((f) => join(root, f)),
  ];
  const newer = inputs.find((file) => statSync(file).mtimeMs > oldest);
  if (newer) return `dist/ is older than ${newer.slice(root.length + 1)}: run \`npm run build\``;
  return undefined;
}

/** Builds when dist/ is incomplete or stale; returns whether it built. */
export function buildIfNeeded() {
  const problem = distProblem();
  if (!problem) return false;
  console.error(`${problem.replace(/: run .*/, '')}: building`);
  const build = spawnSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) throw new Error(`npm run build exited with ${build.status ?? build.signal}`);
  return true;
}

/**
 * The package as `npm pack` makes it from dist/ as it is (`--ignore-scripts`: `prepack` would rebuild), in
 * `dir`; or, when CONVO_SDK_TARBALL names one, a copy of that tarball, so that one CI run packs once.
 * Returns the tarball's path. Throws when dist/ is incomplete or stale.
 */
export function packBuilt(dir) {
  const shared = process.env.CONVO_SDK_TARBALL;
  if (shared) {
    if (!existsSync(shared)) throw new Error(`CONVO_SDK_TARBALL names no file: ${shared}`);
    const copy = join(dir, basename(shared));
    copyFileSync(shared, copy);
    return copy;
  }
  const problem = distProblem();
  if (problem) throw new Error(problem);
  const pack = spawnSync('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', dir], {
    cwd: root,
    encoding: 'utf8',
  });
  if (pack.status !== 0)
    throw new Error(`npm pack exited with ${pack.status ?? pack.signal}\n${pack.stderr}`);
  return join(dir, pack.stdout.trim().split('\n').at(-1));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [command, dir] = process.argv.slice(2);
  try {
    if (command === 'check') {
      const problem = distProblem();
      if (problem) throw new Error(problem);
    } else if (command === 'build') buildIfNeeded();
    else if (command === 'pack' && dir) console.log(packBuilt(resolve(dir)));
    else throw new Error('usage: node scripts/dist.mjs check | build | pack DIR');
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
}
