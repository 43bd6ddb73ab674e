import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

// Every exported class is named as it is exported, in every build: what `instanceof` failures, stack traces
// and Jest's "Expected constructor: NotFoundError" print.
const root = join(import.meta.dirname, '..', '..');
const require = createRequire(import.meta.url);
const entries = ['index', 'schemas', 'mock/index', 'msw', 'ai', 'conformance/index'];
const builds: Array<[build: string, load: (entry: string) => Promise<Record<string, unknown>>]> = [
  ['CommonJS (dist/*.cjs)', async (entry) => require(join(root, 'dist', `${entry}.cjs`))],
  ['Node ESM (dist/*.js)', (entry) => import(pathToFileURL(join(root, 'dist', `${entry}.js`)).href)],
  [
    'bundler ESM (dist/bundler/*.js)',
    (entry) => import(pathToFileURL(join(root, 'dist', 'bundler', `${entry}.js`)).href),
  ],
];

beforeAll(() => {
  execFileSync(process.execPath, [join(root, 'scripts', 'dist.mjs'), 'check'], { stdio: 'pipe' });
});

const isClass = (value: unknown): value is abstract new (...args: never[]) => unknown =>
  typeof value === 'function' && /^class\b/.test(Function.prototype.toString.call(value));

describe.each(builds)('class names, %s', (_build, load) => {
  it('names every exported class as it is exported (Client, TurnStream, every error)', async () => {
    const names: Array<[exported: string, name: string]> = [];
    for (const entry of entries) {
      for (const [exported, value] of Object.entries(await load(entry))) {
        if (isClass(value)) names.push([exported, value.name]);
      }
    }
    const exported = names.map(([name]) => name);
    expect(exported).toEqual(
      expect.arrayContaining(['Client', 'TurnStream', 'ConvoError', 'NotFoundError', 'ConvoChatTransport']),
    );
    expect(names.filter(([name, actual]) => name !== actual)).toEqual([]);
  });
});
