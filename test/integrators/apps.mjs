// The integrator apps of the matrix (run.mjs): what each installs next to the packed tarball, how its
// folder is laid out, and its rows. A row's `test(dir)` resolves a one-line summary or throws why it failed.
// Together the apps cover every runner (Jest 29 and 30 under CommonJS and ESM, vitest, node --test), every
// msw the peer range claims (2.0.0, the newest 2.x, 3), every AI SDK major it claims (7 in the repository's
// own tests, 6 here), TypeScript 5.9, 6.0 and 7 under each resolution they support, an app that both imports
// and requires the package, a Vite build in Chromium, and the OpenTelemetry Node SDK exporting a turn's
// spans, with as few installs as that takes.
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { run, tail } from '../runtimes/harness.mjs';
import { viteRow } from './vite.mjs';

const APPS = join(import.meta.dirname, 'apps');
const ROW_MS = 120_000;
/** The tests of integrator.spec.ts and integrator.test.mjs: a row passes only when all of them ran and passed. */
const TESTS = 4;

/**
 * msw from 2.11.2 on depends on rettime, which ships ESM only (msw 3 is ESM only): Jest's CommonJS runtime
 * cannot load it ("Must use import to load ES Module"). That is msw's matter: a Jest CommonJS app pins the
 * newest msw that loads.
 */
const MSW_CJS = '2.11.1';
const MSW_PIN_WHY = 'msw pinned: >= 2.11.2 needs rettime, ESM only, which Jest CommonJS cannot load';

/** The installed version of `name` in the app at `dir`. */
export function installed(dir, name) {
  return JSON.parse(readFileSync(join(dir, 'node_modules', name, 'package.json'), 'utf8')).version;
}

function copy(file, dir, as = file) {
  copyFileSync(join(APPS, file), join(dir, as));
}

/** Writes `value` as the JSON file `file` of `dir`, formatted as npm and `tsc --init` write theirs. */
function writeJson(dir, file, value) {
  writeFileSync(join(dir, file), `${JSON.stringify(value, null, 2)}\n`);
}

/**
 * What every app's tsconfig holds besides its module and resolution: a strict check, no output. As
 * `tsc --init` writes it: other packages' declarations (msw's, zod's) are theirs to check, and the app's
 * file fails when one of ours resolves to `any`.
 */
const STRICT_CHECK = {
  target: 'es2022',
  lib: ['es2022', 'dom'],
  types: ['node'],
  strict: true,
  noEmit: true,
  skipLibCheck: true,
};

/** Runs `args` on the pinned Node in `dir`; throws the output's tail unless it exits 0. */
async function node(dir, args) {
  const result = await run(process.execPath, args, {
    cwd: dir,
    timeoutMs: ROW_MS,
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', CI: 'true' },
  });
  // Some runners color their diagnostics whatever NO_COLOR says.
  const output = stripVTControlCharacters(`${result.stdout}\n${result.stderr}`);
  if (result.code !== 0) {
    const why = result.timedOut ? `timed out after ${ROW_MS} ms` : `exit ${result.code ?? result.signal}`;
    throw new Error(`${args.join(' ')}: ${why}\n${tail(output, 40)}`);
  }
  return output;
}

/** Checks that all the tests ran and passed, from the count the runner printed. */
function passedAll(output, pattern, tests = TESTS) {
  const count = Number(pattern.exec(output)?.[1] ?? 0);
  if (count !== tests) throw new Error(`${count} of ${tests} tests passed\n${tail(output, 40)}`);
  return `${count} tests passed`;
}

/** One folder per Jest major, with both its CommonJS and its ESM setup, sharing one install. */
function jestApp(major) {
  const versions = (dir) =>
    `jest ${installed(dir, 'jest')}, ts-jest ${installed(dir, 'ts-jest')}, ` +
    `TypeScript ${installed(dir, 'typescript')}, msw ${installed(dir, 'msw')}`;
  const jest = async (dir, flags, config) =>
    passedAll(
      await node(dir, [...flags, 'node_modules/jest/bin/jest.js', '--config', config]),
      /Tests:\s+(\d+) passed/,
      // integrator.spec.ts's, and the identity test of the module system the config runs.
      TESTS + 1,
    );
  // Jest 29 proves the floor of the msw peer range; Jest 30 the newest msw its CommonJS runtime loads.
  const msw = major === 29 ? '2.0.0' : MSW_CJS;
  const why = msw === MSW_CJS ? ` (${MSW_PIN_WHY})` : '';
  return {
    name: `jest${major}`,
    packages: [`jest@${major}`, `@jest/globals@${major}`, 'ts-jest@29', 'typescript@5.9', `msw@${msw}`],
    setup(dir) {
      // A CommonJS project, as most Jest codebases are: no "type" in package.json.
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      delete manifest.type;
      writeJson(dir, 'package.json', manifest);
      for (const file of ['jest.config.js', 'tsconfig.json', 'jest.esm.config.js', 'tsconfig.esm.json']) {
        copy(join('jest', file), dir, file);
      }
      // The tests import their globals from vitest; Jest's are in @jest/globals. The identity tests are one
      // per module system (each config runs its own).
      for (const file of ['integrator.spec.ts', 'jest/identity.cjs.spec.ts', 'jest/identity.esm.spec.ts']) {
        const test = readFileSync(join(APPS, file), 'utf8');
        const jestTest = test.replace("from 'vitest';", "from '@jest/globals';");
        if (jestTest === test) throw new Error(`${file} does not import from 'vitest'`);
        writeFileSync(join(dir, file.replace('jest/', '')), jestTest);
      }
    },
    rows: [
      {
        name: `jest ${major} commonjs`,
        test: async (dir) =>
          `${versions(dir)}${why}: ${await jest(dir, [], 'jest.config.js')} (ts-jest preset, module commonjs)`,
      },
      {
        name: `jest ${major} esm`,
        test: async (dir) =>
          `${versions(dir)}: ${await jest(dir, ['--experimental-vm-modules'], 'jest.esm.config.js')} ` +
          '(ts-jest ESM preset, --experimental-vm-modules)',
      },
    ],
  };
}

/** The TypeScript checks: each resolution, with the files it reads (ESM and CommonJS where both exist). */
const RESOLUTIONS = {
  node10: { module: 'commonjs', moduleResolution: 'node', files: ['consumer.ts'] },
  node16: { module: 'node16', moduleResolution: 'node16', files: ['consumer.mts', 'consumer.cts'] },
  nodenext: { module: 'nodenext', moduleResolution: 'nodenext', files: ['consumer.mts', 'consumer.cts'] },
  bundler: { module: 'esnext', moduleResolution: 'bundler', files: ['consumer.ts'] },
};

/**
 * One install per TypeScript version, one tsconfig per resolution it supports, each a row. msw 2, not 3:
 * msw 3 ships ESM only, so under node16 a CommonJS file (consumer.cts) cannot import it at all (msw's matter).
 */
function typescriptApp(version, resolutions, { ignoreDeprecations } = {}) {
  return {
    name: `ts${version}`,
    packages: [`typescript@${version}`, '@types/node@24', 'msw@2'],
    setup(dir) {
      for (const as of ['consumer.ts', 'consumer.mts', 'consumer.cts']) copy('consumer.ts', dir, as);
      for (const resolution of resolutions) {
        const { files, ...options } = RESOLUTIONS[resolution];
        const compilerOptions = {
          ...options,
          ...STRICT_CHECK,
          ...(resolution === 'node10' && ignoreDeprecations ? { ignoreDeprecations } : {}),
        };
        writeJson(dir, `tsconfig.${resolution}.json`, { compilerOptions, files });
      }
    },
    rows: resolutions.map((resolution) => ({
      name: `ts ${version} ${resolution}`,
      test: async (dir) => {
        const tsc = join(dir, 'node_modules', 'typescript', 'bin', 'tsc');
        await node(dir, [tsc, '-p', `tsconfig.${resolution}.json`]);
        const { files, module } = RESOLUTIONS[resolution];
        return (
          `TypeScript ${installed(dir, 'typescript')}: ${files.join(' + ')} type-check strict ` +
          `(module ${module}) with msw ${installed(dir, 'msw')}, typos fail`
        );
      },
    })),
  };
}

/** An app on AI SDK 6: the peer range takes it (no ERESOLVE, no --legacy-peer-deps), its types and a Chat turn. */
const ai6App = {
  name: 'ai6',
  packages: ['ai@6', '@ai-sdk/react@3', 'react@19', 'typescript@5.9', '@types/node@24'],
  setup(dir) {
    copy('ai6.mts', dir);
    const compilerOptions = { module: 'nodenext', moduleResolution: 'nodenext', ...STRICT_CHECK };
    writeJson(dir, 'tsconfig.json', { compilerOptions, files: ['ai6.mts'] });
  },
  rows: [
    {
      name: 'ai 6 types',
      test: async (dir) => {
        await node(dir, [join(dir, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json']);
        return `ai ${installed(dir, 'ai')}, @ai-sdk/react ${installed(dir, '@ai-sdk/react')}: ConvoChatTransport is 6's ChatTransport (TypeScript ${installed(dir, 'typescript')}, nodenext, strict)`;
      },
    },
    {
      name: 'ai 6 headless Chat',
      test: async (dir) => {
        const output = await node(dir, ['ai6.mts']);
        return `ai ${installed(dir, 'ai')}: ${output.trim().split('\n').at(-1)}`;
      },
    },
  ],
};

/**
 * Every app, in the order its rows run: the smallest installs first, so that their rows run while the Jest
 * installs (the largest) finish.
 */
export const apps = [
  {
    name: 'node-test',
    packages: ['msw@3'],
    setup(dir) {
      copy('integrator.test.mjs', dir);
    },
    rows: [
      {
        name: 'node --test',
        test: async (dir) => {
          const output = await node(dir, ['--test', '--test-reporter=tap', 'integrator.test.mjs']);
          const tests = passedAll(output, /^# pass (\d+)/m);
          return `Node ${process.versions.node}, msw ${installed(dir, 'msw')}: ${tests}`;
        },
      },
    ],
  },
  {
    name: 'mixed',
    // identity.mjs loads convo-sdk/ai, whose optional peer `ai` an app that uses it installs.
    packages: ['ai@7'],
    setup(dir) {
      copy('identity.mjs', dir);
    },
    rows: [
      {
        name: 'mixed ESM/CJS identity',
        test: async (dir) => `Node ${process.versions.node}: ${(await node(dir, ['identity.mjs'])).trim()}`,
      },
    ],
  },
  ai6App,
  {
    name: 'otel',
    // The OpenTelemetry Node SDK as docs/observability.md sets it up; convo-sdk brings @opentelemetry/api.
    packages: ['@opentelemetry/sdk-node@0.301', '@opentelemetry/exporter-trace-otlp-http@0.301'],
    setup(dir) {
      copy('otel.mjs', dir);
    },
    rows: [
      {
        name: 'OpenTelemetry Node SDK',
        test: async (dir) =>
          `sdk-node ${installed(dir, '@opentelemetry/sdk-node')}: ${(await node(dir, ['otel.mjs'])).trim()}`,
      },
    ],
  },
  {
    name: 'vitest',
    packages: ['vitest@5', 'msw@2'],
    setup(dir) {
      copy('integrator.spec.ts', dir);
    },
    rows: [
      {
        name: 'vitest',
        test: async (dir) => {
          const output = await node(dir, ['node_modules/vitest/vitest.mjs', 'run']);
          const tests = passedAll(output, /Tests\s+(\d+) passed/);
          return `vitest ${installed(dir, 'vitest')}, msw ${installed(dir, 'msw')}: ${tests}`;
        },
      },
    ],
  },
  {
    name: 'vite',
    packages: ['vite@8'],
    setup(dir) {
      mkdirSync(join(dir, 'src'));
      for (const file of ['index.html', 'preview.mjs', join('src', 'main.ts')])
        copy(join('vite', file), dir, file);
    },
    rows: [
      {
        name: 'vite + chromium',
        test: async (dir) => `vite ${installed(dir, 'vite')} build, ${await viteRow(dir)}`,
      },
    ],
  },
  typescriptApp('5.9', ['node10', 'node16', 'nodenext', 'bundler']),
  // TypeScript 6.0 deprecates node10: a project that keeps it silences that with ignoreDeprecations.
  typescriptApp('6.0', ['node10', 'node16', 'nodenext', 'bundler'], { ignoreDeprecations: '6.0' }),
  // TypeScript 7 removed node10.
  typescriptApp('7', ['node16', 'nodenext', 'bundler']),
  jestApp(29),
  jestApp(30),
];
