// Bundles stages.ts from the sources (it reaches inside the stream layer, which dist does not export) and
// runs it: node bench/tools/first-event-stages/run.mjs
import { join } from 'node:path';
import { runBundled } from '../run-bundled.mjs';

await runBundled(join(import.meta.dirname, 'stages.ts'));
