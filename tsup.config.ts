import { rmSync } from 'node:fs';
import { defineConfig, type Options } from 'tsup';

type Plugin = NonNullable<Options['plugins']>[number];

// The builds below run in parallel and share dist/, so none of them cleans: dist/ is emptied here, once,
// when the config loads.
rmSync('dist', { recursive: true, force: true });

const shared = {
  target: 'es2022',
  platform: 'neutral',
  sourcemap: true,
  treeshake: true,
  clean: false,
} as const;

/**
 * esbuild names a class that refers to itself after its inner binding (`var Client = class _Client {`, so
 * `Client.name === '_Client'`). The ESM builds rename that binding back, padded with a space
 * (`new  Client(`) so that every line and column, and so the source map, stay as they are. `keepNames`
 * would do it with a `__name` call per function: 2.4 KB gzipped in an app's bundle, and 3 ms of CPU on
 * every cold import in Node.
 */
const selfNamedClasses: Plugin = {
  name: 'self-named-classes',
  renderChunk(code) {
    let named = code;
    for (const [, name] of code.matchAll(/var (\w+) = class _\1\b/g)) {
      named = named.replace(new RegExp(`(?<![\\w$.'"\`])_${name}\\b`, 'g'), ` ${name}`);
    }
    return { code: named };
  },
};

type EsbuildPlugin = NonNullable<Options['esbuildPlugins']>[number];

/**
 * `convo-sdk/ai` and `convo-sdk/conformance` reach the client through the package's own entry (`import ...
 * from 'convo-sdk'`), never a copy of it: an app that loads them has one `ApiError`, one `ValidationError`,
 * whichever build it loads.
 */
const clientAsPackage: EsbuildPlugin = {
  name: 'client-as-package',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/(index|client)\.js$/ }, (args) =>
      /[\\/]src[\\/](ai|conformance)[\\/]/.test(args.importer)
        ? { path: 'convo-sdk', external: true }
        : undefined,
    );
  },
};

/**
 * The modules the Node entry loads on demand, each built as a file of its own next to it (`dist/otel.js`,
 * `dist/zod-compile.js`, and `.cjs`), so that a cold import neither parses them nor loads what they import:
 * inlined, they were a quarter of the entry's bytes, and the CommonJS build would `require` the recorder's
 * `@opentelemetry/api` at startup. The compiler's file has its own copy of zod's core, which compiles the
 * entry's schemas as well: it reads a schema through its `_zod` definition, whichever copy made it.
 */
const NODE_LAZY = {
  './otel.js': {
    importer: /[\\/]src[\\/]telemetry[\\/]gate\.ts$/,
    file: 'otel',
    source: 'src/telemetry/otel.ts',
  },
  './http/zod-compile.js': {
    importer: /[\\/]src[\\/]node\.ts$/,
    file: 'zod-compile',
    source: 'src/http/zod-compile.ts',
  },
  './send-once.js': {
    importer: /[\\/]src[\\/]http[\\/]transport\.ts$/,
    file: 'send-once',
    source: 'src/http/send-once.ts',
  },
} as const;
const nodeLazyEntries = Object.fromEntries(
  Object.values(NODE_LAZY).map(({ file, source }) => [file, source]),
);

/** Resolves the `import()` of a `NODE_LAZY` module to its own file, of extension `ext`. */
const nodeLazy = (ext: '.js' | '.cjs'): EsbuildPlugin => ({
  name: 'node-lazy-files',
  setup(build) {
    build.onResolve({ filter: /^\.\/(otel|http\/zod-compile|send-once)\.js$/ }, (args) => {
      const lazy = NODE_LAZY[args.path as keyof typeof NODE_LAZY];
      return args.kind === 'dynamic-import' && lazy?.importer.test(args.importer)
        ? { path: `./${lazy.file}${ext}`, external: true }
        : undefined;
    });
  },
});

/** The ESM builds. */
const esm = {
  ...shared,
  format: ['esm'],
  plugins: [selfNamedClasses],
  esbuildPlugins: [clientAsPackage],
} satisfies Options;

/** The public entries, each a subpath of the package. */
const entries = {
  index: 'src/index.ts',
  schemas: 'src/schemas.ts',
  'mock/index': 'src/mock/index.ts',
  msw: 'src/mock/msw.ts',
  ai: 'src/ai/index.ts',
  'conformance/index': 'src/conformance/index.ts',
};

/**
 * zod is bundled in, tree-shaken: Node cannot tree-shake, and importing zod's own entry loads all of its
 * 90-odd modules (64 of them locales), most of a cold start. p-retry (with is-network-error) and
 * eventsource-parser, loaded at startup too, are bundled for the same reason: each package resolved costs
 * its lookups and a module of its own.
 */
const bundled = ['zod', 'p-retry', 'is-network-error', 'eventsource-parser'];

export default defineConfig([
  {
    // For Node, Deno and Bun importing (the `node` condition). The client's entry is one file, not split
    // into chunks shared with the other entries: each module Node loads at import costs its own
    // resolution, read and link, more than parsing the code they share (BENCHMARKS.md, benchmark 5). The
    // other entries (the mock, the schemas) carry their own copy. ky and the code around it (http/send-once.ts)
    // are loaded by the first request (http/transport.ts); so are the recorder and zod's compiler, each a file
    // of its own (`NODE_LAZY`).
    ...esm,
    entry: {
      index: 'src/node.ts',
      ...nodeLazyEntries,
    },
    esbuildPlugins: [clientAsPackage, nodeLazy('.js')],
    noExternal: bundled,
    splitting: false,
  },
  {
    ...esm,
    entry: {
      schemas: entries.schemas,
      'mock/index': entries['mock/index'],
      'mock/cli': 'src/mock/cli.ts',
      msw: entries.msw,
      ai: entries.ai,
      'conformance/index': entries['conformance/index'],
      'conformance/cli': 'src/conformance/cli.ts',
    },
    noExternal: bundled,
    splitting: true,
  },
  {
    // For `require` (Node, and Jest's CommonJS runtime, which refuses a dynamic `import()` without
    // --experimental-vm-modules): no `import()` is left. ky and the JSON Schema validator are bundled, so
    // their `import()` becomes a call that initializes the bundled module on first use (still lazy, still off
    // the cold start); `import()` of an external package (node:http, @hono/node-server) becomes a `require`.
    // Each entry is one file with its own copy of what it uses (no chunks loaded with `import()`), but for
    // the Node entry's `NODE_LAZY` files, which it `require`s when first used.
    // `keepNames`: a module initialized lazily assigns its classes to `exports.NotFoundError = class ...`,
    // which gives them no name (`NotFoundError.name === ''`, what Jest prints).
    ...shared,
    keepNames: true,
    esbuildPlugins: [clientAsPackage, nodeLazy('.cjs')],
    entry: { ...entries, index: 'src/node.ts', ...nodeLazyEntries },
    format: ['cjs'],
    noExternal: [...bundled, 'ky', '@cfworker/json-schema'],
    splitting: false,
    esbuildOptions(options) {
      options.supported = { ...options.supported, 'dynamic-import': false };
    },
  },
  {
    // The declarations, .d.ts for `import` and .d.cts for `require`.
    entry: entries,
    format: ['esm', 'cjs'],
    clean: false,
    // Members tagged `@internal` (the transport, the raw answer call) stay out of the declarations.
    dts: { only: true, compilerOptions: { stripInternal: true } },
  },
  {
    // For bundlers (browsers, edge workers): dependencies stay imports, so an app that uses zod itself
    // ships one copy, and the bundler tree-shakes them with the app.
    ...esm,
    entry: entries,
    outDir: 'dist/bundler',
    splitting: true,
  },
]);
