// Benchmark 3: the SDK's cost per request against the HTTP mock vs fetch + JSON.parse: a long list
// (skills.list) and a small call (chats.create), the small call also made through the two anchors (openai,
// @anthropic-ai/sdk) for scale.
import Anthropic from '@anthropic-ai/sdk';
import { Client } from 'convo-sdk';
import { startMockServer } from 'convo-sdk/mock';
import OpenAI from 'openai';
import { versionOf } from './lib/anchors.ts';
import { type BenchResult, emit, type Row } from './lib/result.ts';
import { random } from './lib/sse.ts';
import { median, progress, type Ratio, summarize } from './lib/stats.ts';

const SKILLS = 200;
const ROUNDS = 7;
const PAIRS = 60;
const TOKEN = 'mock-token';
const SDK_VS = 'SDK vs fetch + JSON.parse';

/** The body the mock answers a created chat with. */
interface Created {
  data: { id: string };
}

/** One contender's figures against the baseline. */
interface Comparison {
  ratio: Ratio;
  contender: number;
  raw: number;
}

/**
 * Runs the baseline `raw` and each contender in a random order, PAIRS times a round, ROUNDS times after a
 * warm-up round; per contender, the median of its per-round ratios of median times to the baseline's.
 */
async function compare(
  raw: () => Promise<void>,
  contenders: Record<string, () => Promise<void>>,
): Promise<Record<string, Comparison>> {
  const next = random(7);
  const sides: Record<string, () => Promise<void>> = { raw, ...contenders };
  const names = Object.keys(contenders);
  const ratios = new Map<string, number[]>(names.map((name) => [name, []]));
  const times = new Map<string, number[]>(Object.keys(sides).map((name) => [name, []]));
  for (let round = 0; round <= ROUNDS; round++) {
    const sample = new Map<string, number[]>(Object.keys(sides).map((name) => [name, []]));
    for (let i = 0; i < PAIRS; i++) {
      const order = Object.keys(sides)
        .map((name) => ({ name, key: next() }))
        .sort((a, b) => a.key - b.key);
      for (const { name } of order) {
        const started = performance.now();
        await sides[name]!();
        sample.get(name)!.push(performance.now() - started);
      }
    }
    const medians = Object.fromEntries([...sample].map(([name, t]) => [name, median(t)]));
    progress(
      `round ${round}: ${Object.entries(medians)
        .map(([name, ms]) => `${name} ${ms.toFixed(3)} ms`)
        .join(', ')}`,
    );
    if (round === 0) continue; // warm-up round: JIT, connections
    for (const [name, ms] of Object.entries(medians)) times.get(name)!.push(ms);
    for (const name of names) ratios.get(name)!.push(medians[name]! / medians.raw!);
  }
  const raw_ = median(times.get('raw')!);
  return Object.fromEntries(
    names.map((name) => [
      name,
      { ratio: summarize(ratios.get(name)!), contender: median(times.get(name)!), raw: raw_ },
    ]),
  );
}

/** A row of the table; without `target` the figure is a reference (the anchors). */
function row(figure: string, versus: string, { ratio, contender, raw }: Comparison, target?: number): Row {
  return {
    benchmark: '3 request overhead',
    figure,
    versus,
    ratio,
    value: `${contender.toFixed(3)} ms vs ${raw.toFixed(3)} ms per request`,
    target: target === undefined ? '(anchor)' : `≤ ${target.toFixed(2)}x`,
    pass: target === undefined ? undefined : ratio.median <= target,
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
    const list = (await compare(raw, { sdk })).sdk!;
    // The small call, and the anchors making the same POST through their clients' generic request method
    // against the same endpoint: same request body, same answer.
    const base = `${server.url}/api/v1`;
    const openai = new OpenAI({ baseURL: base, apiKey: TOKEN });
    const anthropic = new Anthropic({ baseURL: base, authToken: TOKEN, apiKey: null });
    const name = 'a benchmark chat';
    const post = { ...headers, 'content-type': 'application/json' };
    const sizes = { request: 0, response: 0 };
    const small = await compare(
      async () => {
        const body = JSON.stringify({ name });
        const response = await fetch(`${base}/chats`, { method: 'POST', headers: post, body });
        const text = await response.text();
        const parsed = JSON.parse(text);
        if (!response.ok || !parsed.data.id) throw new Error('bad raw response');
        sizes.request = body.length;
        sizes.response = text.length;
      },
      {
        sdk: async () => {
          const chat = await client.chats.create({ name });
          if (!chat.id) throw new Error('no chat');
        },
        openai: async () => {
          const created = await openai.post<Created>('/chats', { body: { name } });
          if (!created.data.id) throw new Error('no chat (openai)');
        },
        anthropic: async () => {
          const created = await anthropic.post<Created>('/chats', { body: { name } });
          if (!created.data.id) throw new Error('no chat (anthropic)');
        },
      },
    );
    const smallCall = 'chats.create({ name }) over HTTP, a few hundred bytes each way';
    return {
      rows: [
        row(`skills.list({ size: ${SKILLS} }) over HTTP, random interleaving`, SDK_VS, list, 1.3),
        row(smallCall, SDK_VS, small.sdk!, 1.35), // issue 22's target
        row(
          `anchor: the same POST through openai ${versionOf('openai')} client.post()`,
          'openai vs fetch + JSON.parse',
          small.openai!,
        ),
        row(
          `anchor: the same POST through @anthropic-ai/sdk ${versionOf('@anthropic-ai/sdk')} client.post()`,
          '@anthropic-ai/sdk vs fetch + JSON.parse',
          small.anthropic!,
        ),
      ],
      notes: [
        `Benchmark 3, small call: ${sizes.request} bytes of JSON sent, ${sizes.response} received, the same ` +
          'request to the same mock endpoint for fetch, the SDK and both anchors (each anchor as it comes: ' +
          'its default headers, retries and timeout; authenticated with a Bearer token), all four in a ' +
          `random order ${PAIRS} times a round.`,
      ],
    };
  } finally {
    await server.close();
  }
}

emit(await main());
