import { defineConfig } from 'tsup';

const shared = {
  target: 'es2022',
  platform: 'neutral',
  sourcemap: true,
  treeshake: true,
  splitting: true,
} as const;

export default defineConfig([
  {
    // For Node, Deno and Bun (the `node` and `require` conditions). zod is bundled in, tree-shaken: Node
    // cannot tree-shake, and importing zod's own entry loads all of its 90-odd modules (64 of them locales),
    // most of a cold start. p-retry (with is-network-error) and eventsource-parser, loaded at startup too,
    // are bundled for the same reason: each package resolved costs its lookups and a module of its own.
    ...shared,
    entry: {
      index: 'src/node.ts',
      schemas: 'src/schemas.ts',
      'mock/index': 'src/mock/index.ts',
      'mock/cli': 'src/mock/cli.ts',
      msw: 'src/mock/msw.ts',
    },
    format: ['esm', 'cjs'],
    noExternal: ['zod', 'p-retry', 'is-network-error', 'eventsource-parser'],
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
    clean: ['!bundler/**'], // the other build's output
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
    clean: true,
  },
]);
