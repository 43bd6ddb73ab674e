// Benchmark 3: the SDK's cost per request against the HTTP mock vs fetch + JSON.parse: a long list
// (skills.list) and a small call (chats.create).
import { Client } from 'convo-sdk';
import { startMockServer } from 'convo-sdk/mock';
import { type BenchResult, emit, type Row } from './lib/result.ts';
import { random } from './lib/sse.ts';
import { median, progress, type Ratio, summarize } from './lib/stats.ts';

const SKILLS = 200;
const ROUNDS = 7;
const PAIRS = 60;
const TOKEN = 'mock-token';

interface Comparison {
  ratio: Ratio;
  sdk: number;
  raw: number;
}

/** Runs `sdk` and `raw` in random order, PAIRS at a time, ROUNDS times after a warm-up round. */
async function compare(sdk: () => Promise<void>, raw: () => Promise<void>): Promise<Comparison> {
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
  return { ratio: summarize(ratios), sdk: median(times.sdk), raw: median(times.raw) };
}

function row(figure: string, { ratio, sdk, raw }: Comparison, target: number): Row {
  return {
    benchmark: '3 request overhead',
    figure,
    versus: 'SDK vs fetch + JSON.parse',
    ratio,
    value: `${sdk.toFixed(3)} ms vs ${raw.toFixed(3)} ms per request`,
    target: `≤ ${target.toFixed(2)}x`,
    pass: ratio.median <= target,
  };
}

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
    const list = await compare(sdk, raw);
    const chatUrl = `${server.url}/api/v1/chats`;
    const post = { ...headers, 'content-type': 'application/json' };
    const create = await compare(
      async () => {
        const chat = await client.chats.create({ name: 'a benchmark chat' });
        if (!chat.id) throw new Error('no chat');
      },
      async () => {
        const response = await fetch(chatUrl, {
          method: 'POST',
          headers: post,
          body: JSON.stringify({ name: 'a benchmark chat' }),
        });
        const body = JSON.parse(await response.text());
        if (!response.ok || !body.data.id) throw new Error('bad raw response');
      },
    );
    return {
      rows: [
        row(`skills.list({ size: ${SKILLS} }) over HTTP, random interleaving`, list, 1.3),
        row('chats.create({ name }) over HTTP, a few hundred bytes each way', create, 1.55),
      ],
      notes: [],
    };
  } finally {
    await server.close();
  }
}

emit(await main());
