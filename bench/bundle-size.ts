// Benchmark 4: the gzipped browser bundle of "create a client and stream a turn", against its budget and
// against the least an app could ship for the same (fetch + eventsource-parser + JSON.parse).
import { BUDGETS, measure } from '../scripts/check-size.mjs';
import { type BenchResult, emit } from './lib/result.ts';
import { progress } from './lib/stats.ts';

const BASELINE = `import { createParser } from 'eventsource-parser';
const response = await fetch('https://api.example.com/api/v1/chats/3f2b1c4d/messages/stream', {
  method: 'POST',
  headers: { authorization: 'Bearer token', accept: 'text/event-stream', 'content-type': 'application/json' },
  body: JSON.stringify({ content: 'Hello' }),
});
const parser = createParser({ onEvent: (event) => console.log(event.event, JSON.parse(event.data)) });
const decoder = new TextDecoder();
for await (const chunk of response.body) parser.feed(decoder.decode(chunk, { stream: true }));`;

/** A chunk the bundle loads on demand. */
interface Chunk {
  packages: string[];
  gzip: number;
}

const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`;

async function main(): Promise<BenchResult> {
  const budget = BUDGETS[0]!;
  const sdk = await measure(budget.code);
  const bare = await measure(BASELINE);
  const ratio = sdk.gzip / bare.gzip;
  progress(`sdk ${kb(sdk.gzip)} gzipped, bare ${kb(bare.gzip)} gzipped`);
  const byPackage = Object.entries(sdk.byPackage as Record<string, number>)
    .sort((a, b) => b[1] - a[1])
    .map(([name, bytes]) => `${name} ${kb(bytes)}`)
    .join(', ');
  const shares: string[] = [];
  for (const name of Object.keys(sdk.byPackage).filter((n) => n !== 'convo-sdk')) {
    const without = await measure(budget.code, [name]);
    shares.push(`${name} ${kb(sdk.gzip - without.gzip)}`);
  }
  return {
    rows: [
      {
        benchmark: '4 bundle size',
        figure: 'Client + turns.stream, esbuild minified browser ESM, gzipped, loaded up front',
        versus: 'SDK vs fetch + eventsource-parser',
        ratio: { median: ratio, min: ratio, max: ratio, rounds: 1 },
        value: `${kb(sdk.gzip)} (${kb(sdk.minified)} min) vs ${kb(bare.gzip)}`,
        target: `≤ ${kb(budget.maxGzip)}`,
        pass: sdk.gzip <= budget.maxGzip,
      },
    ],
    notes: [
      `Benchmark 4, minified bytes by package, up front: ${byPackage}. ` +
        `Gzipped bytes each dependency adds up front (bundle with it minus bundle without it): ${shares.join(', ')}. ` +
        `Loaded on demand: ${sdk.lazy.map((chunk: Chunk) => `${chunk.packages.join(' + ')} ${kb(chunk.gzip)}`).join(', ')} gzipped.`,
    ],
  };
}

emit(await main());
