import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { relativeImports, tsFiles } from '../support/source-files.js';

// The layers of src/, from the ground up (ARCHITECTURE.md): an import only ever points down.
const LAYERS = ['contract', 'errors', 'telemetry', 'http', 'stream', 'interactions', 'turn', 'resources', ''];
// The files at the root of src/: the top layer, the client and the package's entries, nothing else.
const ROOT_FILES = ['client.ts', 'index.ts', 'node.ts', 'schemas.ts'];
const src = join(import.meta.dirname, '..', '..', 'src');

/** The top folder of a path under src/ ('' for a file at the root). */
const folderOf = (file: string) => {
  const parts = relative(src, file).split('/');
  return parts.length > 1 ? parts[0]! : '';
};

describe('layers', () => {
  const edges = tsFiles(src).flatMap((file) =>
    relativeImports(file).map((target) => [file, target] as const),
  );

  it('the root of src/ holds only the client and the entries; every other file is in a named layer', () => {
    const root = tsFiles(src)
      .filter((file) => folderOf(file) === '')
      .map((file) => relative(src, file))
      .sort();
    expect(root).toEqual(ROOT_FILES);
  });

  it('no import runs from a lower layer up to a higher one', () => {
    const upward = edges.filter(([from, to]) => {
      const a = LAYERS.indexOf(folderOf(from));
      const b = LAYERS.indexOf(folderOf(to));
      return a >= 0 && b > a;
    });
    expect(upward.map(([from, to]) => `${relative(src, from)} -> ${relative(src, to)}`)).toEqual([]);
  });

  it('stream/ imports neither interactions/ nor resources/ nor turn/; the mock imports only contract/; ai/ only the public surface', () => {
    const bad = edges.filter(([from, to]) => {
      const a = folderOf(from);
      const b = folderOf(to);
      if (a === 'stream') return ['interactions', 'resources', 'turn'].includes(b);
      if (a === 'mock') return b !== 'mock' && b !== 'contract';
      // ai/ is the top layer: it uses the public surface only, as an integrator would.
      if (a === 'ai') return b !== 'ai' && relative(src, to) !== 'index.ts';
      if (b === 'ai') return true;
      return b === 'mock' && a !== 'mock' && !relative(src, from).startsWith('msw');
    });
    expect(bad.map(([from, to]) => `${relative(src, from)} -> ${relative(src, to)}`)).toEqual([]);
  });

  it('conformance/ is a top layer: it imports only contract/ and the public surface, and nothing imports it', () => {
    const publicFiles = ['index.ts', 'errors/index.ts'];
    const bad = edges.filter(([from, to]) => {
      const [a, b] = [folderOf(from), folderOf(to)];
      if (a === 'conformance')
        return !['conformance', 'contract'].includes(b) && !publicFiles.includes(relative(src, to));
      return b === 'conformance';
    });
    expect(bad.map(([from, to]) => `${relative(src, from)} -> ${relative(src, to)}`)).toEqual([]);
  });
});
