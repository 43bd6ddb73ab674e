import { relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { relativeImports, tsFiles } from '../support/source-files.js';

/**
 * The mock's rooms, from the ground up (src/mock/index.ts): an import points to the same room or one
 * below, and out of the mock only to `contract/`.
 */
const MOCK = resolve(import.meta.dirname, '../../src/mock');
const RANK: Record<string, number> = {
  time: 0,
  wire: 0,
  state: 1,
  model: 2,
  turns: 3,
  http: 4,
  'mock.ts': 5,
  adapters: 6,
  // The inspector serves a running mock beside its adapters.
  inspector: 6,
  'index.ts': 7,
  'cli.ts': 7,
  'msw.ts': 7,
};

const roomOf = (file: string) => relative(MOCK, file).split('/')[0] ?? '';

describe('the mock as rooms', () => {
  const sources = tsFiles(MOCK);

  it('every file sits in a known room', () => {
    expect(sources.map(roomOf).filter((room) => !(room in RANK))).toEqual([]);
  });

  it('imports point to the same room or below, and out of the mock only to contract/', () => {
    const wrong: string[] = [];
    for (const file of sources) {
      for (const target of relativeImports(file)) {
        const where = relative(MOCK, target);
        const name = relative(MOCK, file);
        if (where.startsWith('..')) {
          if (!relative(resolve(MOCK, '..'), target).startsWith('contract/'))
            wrong.push(`${name} -> ${where}`);
        } else if ((RANK[roomOf(target)] ?? 99) > (RANK[roomOf(file)] ?? -1)) {
          wrong.push(`${name} -> ${where}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });
});
