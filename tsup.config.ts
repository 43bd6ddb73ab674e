import { rmSync } from 'node:fs';
import { defineConfig, type Options } from 'tsup';

// The three builds below run in parallel and share dist/, so none of them cleans: dist/ is emptied here,
// once, when the config loads.
rmSync('dist', { recursive: true, force: true });

const shared = {
  target: 'es2022',
  platform: 'neutral',
  sourcemap: true,
  treeshake: true,
  clean: false,
} as const;

/**
 * For Node, Deno and Bun (the `node` and `require` conditions). zod is bundled in, tree-shaken: Node cannot
 * tree-shake, and importing zod's own entry loads all of its 90-odd modules (64 of them locales), most of a
 * cold start. p-retry (with is-network-error) and eventsource-parser, loaded at startup too, are bundled for
 * the same reason: each package resolved costs its lookups and a module of its own.
 */
const node: Options = {
  ...shared,
  format: ['esm', 'cjs'],
  noExternal: ['zod', 'p-retry', 'is-network-error', 'eventsource-parser'],
};

export default defineConfig([
  {
    // The client's entry is one file, not split into chunks shared with the other entries: each module
    // Node loads at import costs its own resolution, read and link, more than parsing the code they share
    // (BENCHMARKS.md, benchmark 5). The other entries (the mock, the schemas) carry their own copy.
    ...node,
    entry: { index: 'src/node.ts' },
    splitting: false,
    dts: {
      entry: {
        index: 'src/index.ts',
        schemas: 'src/schemas.ts',
        'mock/index': 'src/mock/index.ts',
        msw: 'src/mock/msw.ts',
      },
      // Members tagged `@internal` (the transport, the raw answer call) stay out of the declarations.
      compilerOptions: { stripInternal: true },
    },
  },
  {
    ...node,
    entry: {
      schemas: 'src/schemas.ts',
      'mock/index': 'src/mock/index.ts',
      'mock/cli': 'src/mock/cli.ts',
      msw: 'src/mock/msw.ts',
    },
    splitting: true,
  },
  {
    // For bundlers (browsers, edge workers): dependencies stay imports, so an app that uses zod itself
    // ships one copy, and the bundler tree-shakes them with the app.
    ...shared,
    entry: {
      index: 'src/index.ts',
      schemas: 'src/schemas.ts',
      'mock/index': 'src/mock/index.ts',
      msw: 'src/mock/msw.ts',
    },
    format: ['esm'],
    outDir: 'dist/bundler',
    splitting: true,
  },
]);
