import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// Static imports that survive compilation: `import type` and `export type` are erased, the rest stays
// (with verbatimModuleSyntax even `import { type X }` keeps the module).
const STATIC_IMPORT = /^\s*(?:import|export)\s+(?!type\s)(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm;

function reachable(entry: string): Map<string, string[]> {
  const seen = new Map<string, string[]>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    const specifiers = [...readFileSync(file, 'utf8').matchAll(STATIC_IMPORT)].map((match) => match[1] ?? '');
    seen.set(file, specifiers);
    for (const specifier of specifiers) {
      if (specifier.startsWith('.')) visit(resolve(dirname(file), specifier.replace(/\.js$/, '.ts')));
    }
  };
  visit(entry);
  return seen;
}

describe('convo-sdk/mock in a browser bundle', () => {
  it('imports no Node module statically (startMockServer loads node:http and @hono/node-server lazily)', () => {
    const files = reachable(resolve(import.meta.dirname, '../../src/mock/index.ts'));
    const nodeOnly = [...files].flatMap(([file, specifiers]) =>
      specifiers
        .filter((specifier) => specifier.startsWith('node:') || specifier.startsWith('@hono/node-server'))
        .map((specifier) => `${file}: ${specifier}`),
    );
    expect(files.size).toBeGreaterThan(10);
    expect(nodeOnly).toEqual([]);
  });

  it('imports nothing from the client (src/http, src/resources, src/stream, src/client.ts)', () => {
    const files = reachable(resolve(import.meta.dirname, '../../src/mock/index.ts'));
    const client = [...files.keys()].filter((file) =>
      /src\/(http|resources|stream)\/|src\/client\.ts$/.test(file),
    );
    expect(client).toEqual([]);
  });
});
