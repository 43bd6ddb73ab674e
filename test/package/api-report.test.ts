import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

// scripts/api-report.mjs on a package of the test's own: two entries, each a .d.ts and its ESM build.
const script = join(import.meta.dirname, '..', '..', 'scripts', 'api-report.mjs');
const folders: string[] = [];

afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

const entry = (name: string) => ({ import: { types: `./dist/${name}.d.ts`, node: `./dist/${name}.js` } });

/** A built package in a folder of its own, `files` under dist/. */
function builtPackage(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'api-report-'));
  folders.push(root);
  mkdirSync(join(root, 'dist'));
  const exports = { '.': entry('index'), './extra': entry('extra'), './package.json': './package.json' };
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'pkg', type: 'module', exports }));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(root, 'dist', name), text);
  return root;
}

const run = (root: string, ...args: string[]) => {
  const { status, stdout, stderr } = spawnSync(process.execPath, [script, '--root', root, ...args], {
    encoding: 'utf8',
  });
  return { status, output: stdout + stderr };
};

const CLIENT = [
  'declare abstract class Base { readonly id: string; }',
  "declare class Client extends Base { send(mode: 'b' | 'a'): void; }",
  'interface Options { timeout?: number; }',
  'export { Client, type Options };',
].join('\n');

describe('the API report (scripts/api-report.mjs)', () => {
  it('reports each name, value or type, and what the exports name unexported; --check fails on a change', () => {
    const root = builtPackage({
      'index.d.ts': CLIENT,
      'index.js': 'export class Client {}',
      'extra.d.ts': 'export declare function helper(): number;',
      'extra.js': 'export function helper() { return 1; }',
    });
    expect(run(root).status).toBe(0);
    const report = readFileSync(join(root, 'api', 'pkg.api.md'), 'utf8');
    expect(report).toContain('What `pkg` exports: 2 names, 1 of them values at run time.');
    expect(report).toContain('// Client (value)\n');
    expect(report).toContain('// Options (type)\n');
    // The union in the order of its text, whatever order the compiler wrote it in.
    expect(report).toContain(`send(mode: 'a' | 'b'): void;`);
    expect(report.slice(report.indexOf('## Named by the exports, not exported (1)'))).toContain(
      'declare abstract class Base',
    );
    expect(readFileSync(join(root, 'api', 'pkg-extra.api.md'), 'utf8')).toContain('// helper (value)');
    expect(run(root, '--check')).toEqual({ status: 0, output: 'api/: 2 reports match dist/.\n' });

    writeFileSync(join(root, 'dist', 'index.d.ts'), CLIENT.replace('timeout?: number', 'timeout?: string'));
    writeFileSync(join(root, 'api', 'old.api.md'), '');
    const changed = run(root, '--check');
    expect(changed.status).toBe(1);
    expect(changed.output).toMatch(
      /api\/pkg\.api\.md differs, line \d+: api\/ has .*number.*dist\/ gives .*string/,
    );
    expect(changed.output).toContain("api/old.api.md is no entry's report");
    expect(changed.output).toContain('run `npm run api:update`');
  });

  it('refuses a class the declarations export that the build does not (a class exported with `export type`)', () => {
    const root = builtPackage({
      'index.d.ts': CLIENT,
      'index.js': 'export {};',
      'extra.d.ts': 'export {};',
      'extra.js': 'export {};',
    });
    const { status, output } = run(root);
    expect(status).toBe(1);
    expect(output).toContain('pkg declares Client as a value but does not export it at run time.');
  });

  it('refuses a value the build exports that the declarations do not', () => {
    const root = builtPackage({
      'index.d.ts': 'export {};',
      'index.js': 'export {};',
      'extra.d.ts': 'export {};',
      'extra.js': 'export const stray = 1;',
    });
    const { status, output } = run(root);
    expect(status).toBe(1);
    expect(output).toContain('pkg/extra exports stray at run time but does not declare it.');
  });
});
