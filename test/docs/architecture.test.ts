import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { relativeImports, tsFiles } from '../support/source-files.js';

const root = join(import.meta.dirname, '..', '..');
const page = readFileSync(join(root, 'ARCHITECTURE.md'), 'utf8');

/**
 * The files and folders ARCHITECTURE.md names in backticks: a name with an extension of the repository's
 * files, or a folder (ending in `/`). The build's output (`dist/`) and what lies outside the repository
 * (`../shared/...`) are not in a clone.
 */
const named = [
  ...new Set(
    [...page.matchAll(/`([^`\s]+)`/g)]
      .map((match) => match[1]!)
      .filter((name) => /^[A-Za-z][\w.-]*(\/[\w.-]+)*(\.(ts|mjs|md|json)|\/)$/.test(name))
      .filter((name) => !name.startsWith('dist/')),
  ),
];

/** Every file and folder under `dir`, relative to the root, folders ending in `/`. */
function tree(dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, withFileTypes: true }).map((entry) => {
    const path = join(entry.parentPath, entry.name).slice(root.length + 1);
    return entry.isDirectory() ? `${path}/` : path;
  });
}

const sources = tree('src');
const repository = ['src', 'test', 'docs', 'scripts', 'api'].flatMap(tree).concat(readdirSync(root));

describe('ARCHITECTURE.md names only files that exist', () => {
  it('it names files at all (the page is read)', () => {
    expect(named).toContain('src/');
    expect(named.length).toBeGreaterThan(100);
  });

  it('every `src/`, `test/`, `scripts/` and `docs/` path exists', () => {
    const rooted = named.filter((name) => /^(src|test|scripts|docs|api)\//.test(name));
    expect(rooted.length).toBeGreaterThan(5);
    expect(rooted.filter((name) => !existsSync(join(root, name)))).toEqual([]);
  });

  it('every path inside `src/` (`stream/map.ts`, a room of the mock) names a file or folder of src/', () => {
    const inside = named.filter((name) => name.includes('/') && !/^(src|test|scripts|docs|api)\//.test(name));
    expect(inside.length).toBeGreaterThan(50);
    expect(inside.filter((name) => !sources.some((path) => `/${path}`.endsWith(`/${name}`)))).toEqual([]);
  });

  it('every bare file name (`fold.ts`, `mock.md`) is the name of a file of the repository', () => {
    const names = new Set(repository.map((path) => basename(path)));
    const bare = named.filter((name) => !name.includes('/'));
    expect(bare.length).toBeGreaterThan(50);
    expect(bare.filter((name) => !names.has(name))).toEqual([]);
  });

  it('every name cited after its file (`http/keyed.ts` `attemptRule`) is in that file', () => {
    const pairs = [...page.matchAll(/`([\w./-]+\.ts)` `([A-Za-z_$][\w$]*)(?:[.(][^`]*)?`/g)].map(
      ([, file, name]) => [file!, name!] as const,
    );
    expect(pairs.length).toBeGreaterThan(30);
    const missing = pairs.filter(([file, name]) => {
      const path = repository.find((source) => `/${source}`.endsWith(`/${file}`));
      const text = path ? readFileSync(join(root, path), 'utf8') : '';
      return !new RegExp(`\\b${name.replace('$', '\\$')}\\b`).test(text);
    });
    expect(missing).toEqual([]);
  });
});

describe('ARCHITECTURE.md says what the code does', () => {
  it('the transport applies the answer kind’s attempt rule, the only kind that has one', async () => {
    const { attemptRule } = await import('../../src/http/keyed.js');
    const kinds = ['repeatable', 'write', 'turn', 'answer', 'cancel'] as const;
    expect(kinds.filter((kind) => attemptRule(kind, undefined, 'p') !== undefined)).toEqual(['answer']);
    expect(page).toContain('`attemptRule`, which only the `answer` kind has');
  });

  it('every class of the client’s layers that extends an SDK error lives in errors/', () => {
    const layers = ['contract', 'http', 'stream', 'interactions', 'turn', 'resources'];
    const declared = sources
      .map((path) => path.slice('src/'.length))
      .filter((path) => path.endsWith('.ts') && (layers.includes(path.split('/')[0]!) || !path.includes('/')))
      .filter((path) => /class \w+ extends \w*Error\b/.test(readFileSync(join(root, 'src', path), 'utf8')));
    expect(declared).toEqual([]);
    // The check reads the files: errors/ itself declares them.
    expect(readFileSync(join(root, 'src', 'errors', 'base.ts'), 'utf8')).toMatch(
      /class \w+ extends \w*Error\b/,
    );
  });

  it('every file of the layers the page lists file by file is named, and every guide of docs/', () => {
    const names = new Set(named.map((name) => basename(name)));
    const layers = ['errors', 'telemetry', 'http', 'stream', 'interactions', 'turn', 'resources', 'ai'];
    const files = layers.flatMap((layer) =>
      readdirSync(join(root, 'src', layer))
        .filter((file) => file.endsWith('.ts'))
        .map((file) => `${layer}/${file}`),
    );
    expect(files.length).toBeGreaterThan(60);
    expect(files.filter((file) => !names.has(basename(file)))).toEqual([]);
    const docs = page.slice(page.indexOf('\n## Docs'));
    const guides = readdirSync(join(root, 'docs')).filter((file) => file.endsWith('.md'));
    expect(guides.filter((guide) => !docs.includes(`\`${guide}\``))).toEqual([]);
  });

  it('ai/ imports nothing of src/ but index.ts', () => {
    const ai = join(root, 'src', 'ai');
    const outside = tsFiles(ai)
      .flatMap((file) => relativeImports(file))
      .filter((target) => !target.startsWith(`${ai}/`))
      .map((target) => target.slice(root.length + 1));
    expect(outside.length).toBeGreaterThan(5);
    expect([...new Set(outside)]).toEqual(['src/index.ts']);
    expect(page).toContain('of `src/` it imports only `index.ts`');
  });

  it('the recorder, telemetry/otel.ts, is loaded only by telemetry/gate.ts', () => {
    const loads = tsFiles(join(root, 'src')).filter((file) =>
      /import\(['"][./]*(telemetry\/)?otel\.js['"]\)|^import (?!type\b)[^'"]*from '[./]+(telemetry\/)?otel\.js'/m.test(
        readFileSync(file, 'utf8'),
      ),
    );
    expect(loads.map((file) => file.slice(root.length + 1))).toEqual(['src/telemetry/gate.ts']);
    expect(page).toContain('`telemetry/otel.ts`, loaded only by `telemetry/gate.ts`');
  });

  it('names PATH_PARAMS and the order of REPLAY’s rows', () => {
    expect(page).toMatch(/`PATH_PARAMS`/);
    expect(page).toMatch(/`REPLAY`'s rows are in the order a re-delivery sends them/);
  });
});
