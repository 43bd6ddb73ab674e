// Bundles heap.ts from the sources and runs it: node bench/tools/turn-bytes/run.mjs [--unbounded]
// (--unbounded reads with the largest maxTurnBytes, 2^29: near V8's string limit, which it must not reach).
import { join } from 'node:path';
import { runBundled } from '../run-bundled.mjs';

await runBundled(join(import.meta.dirname, 'heap.ts'), process.argv.slice(2));
