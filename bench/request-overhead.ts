// Benchmark 3: the SDK's cost per request: client.skills.list against the HTTP mock vs fetch + JSON.parse.
import { Client } from 'convo-sdk';
import { startMockServer } from 'convo-sdk/mock';
import { type BenchResult, emit } from './lib/result.ts';
import { random } from './lib/sse.ts';
import { median, progress, summarize } from './lib/stats.ts';

const SKILLS = 200;
const ROUNDS = 7;
const PAIRS = 60;
const TOKEN = 'mock-token';

async function main(): Promise<BenchResult> {
  const server = await startMockServer({ port: 0 });
  try {
    const client = new Client({ baseUrl: server.url, token: TOKEN });
    for (let i = 0; i < SKILLS; i++) {
      await client.skills.create({
        name: `skill ${i}`,
        instructions: `Answer in the voice of skill ${i}. `.repeat(4),
        description: 'a benchmark skill',
      });
    }
    const url = `${server.url}/api/v1/skills?size=${SKILLS}&page=1`;
    const headers = { authorization: `Bearer ${TOKEN}`, accept: 'application/json' };
    const sdk = async () => {
      const page = await client.skills.list({ size: SKILLS });
      if (page.items.length !== SKILLS) throw new Error('short page');
    };
    const raw = async () => {
      const response = await fetch(url, { headers });
      const body = JSON.parse(await response.text());
      if (!response.ok || body.data.length !== SKILLS) throw new Error('bad raw response');
    };
    const next = random(7);
    const ratios: number[] = [];
    const times = { sdk: [] as number[], raw: [] as number[] };
    for (let round = 0; round <= ROUNDS; round++) {
      const sample = { sdk: [] as number[], raw: [] as number[] };
      for (let i = 0; i < PAIRS; i++) {
        const order = next() < 0.5 ? (['sdk', 'raw'] as const) : (['raw', 'sdk'] as const);
        for (const side of order) {
          const started = performance.now();
          await (side === 'sdk' ? sdk() : raw());
          sample[side].push(performance.now() - started);
        }
      }
      const [s, r] = [median(sample.sdk), median(sample.raw)];
      progress(`round ${round}: sdk ${s.toFixed(3)} ms, fetch ${r.toFixed(3)} ms`);
      if (round === 0) continue;
      ratios.push(s / r);
      times.sdk.push(s);
      times.raw.push(r);
    }
    const ratio = summarize(ratios);
    return {
      rows: [
        {
          benchmark: '3 request overhead',
          figure: `skills.list({ size: ${SKILLS} }) over HTTP, random interleaving`,
          versus: 'SDK vs fetch + JSON.parse',
          ratio,
          value: `${median(times.sdk).toFixed(2)} ms vs ${median(times.raw).toFixed(2)} ms per request`,
          target: '≤ 1.15x',
          pass: ratio.median <= 1.15,
        },
      ],
      notes: [],
    };
  } finally {
    await server.close();
  }
}

emit(await main());
