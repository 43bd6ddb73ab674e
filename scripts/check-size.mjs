// Size budget of what a browser app ships to create a client and stream a turn: esbuild, minified, browser
// ESM, tree-shaken, every dependency included, gzipped. Built from src (no build step needed); exits 1 when
// over budget. Usage: node scripts/check-size.mjs [--json]
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const root = resolve(fileURLToPath(import.meta.url), '../..');

/**
 * What an app writes to stream a turn, in gzipped bytes (1 KB = 1,000 bytes). `maxGzip` is the enforced
 * budget: today's size plus a little, so that any growth fails the test command. `targetGzip` is the goal;
 * it is missed while ky (9 KB) and the JSON Schema validator (6.5 KB) ship in this entry (BENCHMARKS.md).
 */
export const BUDGETS = [
  {
    name: 'Client + turns.stream',
    maxGzip: 41_000,
    targetGzip: 25_000,
    code: `import { Client } from 'convo-sdk';
const client = new Client({ baseUrl: 'https://api.example.com', token: 'token' });
for await (const event of client.turns.stream('3f2b1c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d', { content: 'Hello' })) {
  console.log(event);
}`,
  },
];

/** Bundles `code` as a browser app would (leaving out `external`); returns its sizes and bytes per package. */
export async function measure(code, external = []) {
  const result = await build({
    stdin: { contents: code, resolveDir: root, loader: 'js', sourcefile: 'app.js' },
    alias: { 'convo-sdk': './src/index.ts' },
    bundle: true,
    minify: true,
    treeShaking: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    define: { 'process.env.NODE_ENV': '"production"' },
    external,
    metafile: true,
    write: false,
    logLevel: 'silent',
  });
  const bytes = result.outputFiles[0].contents;
  const byPackage = {};
  for (const output of Object.values(result.metafile.outputs)) {
    for (const [path, { bytesInOutput }] of Object.entries(output.inputs)) {
      const name = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path)?.[1] ?? 'convo-sdk';
      byPackage[name] = (byPackage[name] ?? 0) + bytesInOutput;
    }
  }
  return { minified: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length, byPackage };
}

const kb = (bytes) => `${(bytes / 1000).toFixed(1)} KB`;

async function main() {
  const results = [];
  for (const budget of BUDGETS) results.push({ ...budget, ...(await measure(budget.code)), code: undefined });
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify(results));
  } else {
    for (const r of results) {
      const verdict = r.gzip <= r.maxGzip ? 'ok' : 'OVER BUDGET';
      const target = r.gzip <= r.targetGzip ? 'target met' : `target ${kb(r.targetGzip)} missed`;
      console.log(
        `${r.name}: ${kb(r.gzip)} gzipped (${kb(r.minified)} minified), budget ${kb(r.maxGzip)}: ${verdict}; ${target}`,
      );
      if (r.gzip > r.maxGzip) {
        const top = Object.entries(r.byPackage).sort((a, b) => b[1] - a[1]);
        console.log(`  minified bytes by package: ${top.map(([name, n]) => `${name} ${kb(n)}`).join(', ')}`);
      }
    }
  }
  if (results.some((r) => r.gzip > r.maxGzip)) process.exitCode = 1;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
