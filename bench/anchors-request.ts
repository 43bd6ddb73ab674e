// Benchmark 13: the shared harness's request workload, anchors beside. A node:http server in its own process
// (bench/lib/json-server.ts) answers a fixed, valid JSON for each contender's simplest call: `chats.get` and
// `chats.create` of the client (with telemetry off, and `chats.get` with telemetry on: the OpenTelemetry SDK
// registered in its process), @anthropic-ai/sdk's `messages.create` and openai's `chat.completions.create`
// (`maxRetries: 0` for all). Each contender lives in its own process with its baseline: raw `fetch` POSTing
// the same request body to the same URL, `res.json()`. N sequential requests per contender and per baseline
// a round, ROUNDS rounds after WARMUP each; within a round the contenders take turns in blocks of BLOCK
// requests in a seeded order, each block the SDK's and the baseline's back to back (which first, seeded too).
// The ratio: the median over all blocks of (SDK block / its baseline's block), which cancels the slow phases
// of a shared machine.
import { fork } from 'node:child_process';
import { versionOf } from './lib/anchors.ts';
import { type Child, cleanEnv, serveParent, spawnChild } from './lib/child.ts';
import { type BenchResult, emit, type Row } from './lib/result.ts';
import { random } from './lib/sse.ts';
import { median, progress, quantile, SMOKE, shuffle } from './lib/stats.ts';

const N = SMOKE ? 100 : 2_000;
const ROUNDS = SMOKE ? 1 : 3;
const WARMUP = SMOKE ? 20 : 200;
const BLOCK = 20;
const NAMES = ['get', 'create', 'get-otel', 'anthropic', 'openai'] as const;
type Name = (typeof NAMES)[number];

const CHAT = '0b0e5f1e-5a8e-4c59-9d2a-6f1f4b1c2d3e';
const CHAT_BODY = {
  status: 'success',
  message: 'OK',
  message_code: 'api_v1_ok',
  data: {
    id: CHAT,
    name: 'bench',
    is_favorite: false,
    permission_mode: 'manual',
    model_id: 1,
    created_at: '2026-01-01T00:00:00Z',
    updated_at: '2026-01-01T00:00:00Z',
  },
  meta: { request_id: '4a7c9e2b-1d3f-4b5a-8c6d-7e8f9a0b1c2d' },
};
const ANTHROPIC_BODY = {
  id: 'msg_bench',
  type: 'message',
  role: 'assistant',
  model: 'bench-model',
  content: [{ type: 'text', text: 'hello' }],
  stop_reason: 'end_turn',
  stop_sequence: null,
  usage: { input_tokens: 1, output_tokens: 1 },
};
const OPENAI_BODY = {
  id: 'chatcmpl-bench',
  object: 'chat.completion',
  created: 1700000000,
  model: 'bench-model',
  choices: [
    {
      index: 0,
      message: { role: 'assistant', content: 'hello', refusal: null },
      logprobs: null,
      finish_reason: 'stop',
    },
  ],
  usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
};
const messages = [{ role: 'user' as const, content: 'hi' }];

/** Each contender's route (under its own mount, /NAME), the body it is answered, the body the baseline sends. */
const ROUTES: Record<Name, { path: string; response: unknown; request: unknown }> = {
  get: { path: `/api/v1/chats/${CHAT}`, response: CHAT_BODY, request: { name: 'bench' } },
  create: { path: '/api/v1/chats', response: CHAT_BODY, request: { name: 'bench' } },
  'get-otel': { path: `/api/v1/chats/${CHAT}`, response: CHAT_BODY, request: { name: 'bench' } },
  anthropic: {
    path: '/v1/messages',
    response: ANTHROPIC_BODY,
    request: { model: 'bench-model', max_tokens: 16, messages },
  },
  openai: {
    path: '/v1/chat/completions',
    response: OPENAI_BODY,
    request: { model: 'bench-model', messages },
  },
};

/** The contender's call, its package imported when chosen. */
async function caller(name: Name, origin: string): Promise<() => Promise<unknown>> {
  if (name === 'anthropic') {
    const { default: Anthropic } = await import('@anthropic-ai/sdk');
    const client = new Anthropic({ apiKey: 'sk-ant-bench', baseURL: origin, maxRetries: 0 });
    return () => client.messages.create({ model: 'bench-model', max_tokens: 16, messages });
  }
  if (name === 'openai') {
    const { default: OpenAI } = await import('openai');
    const client = new OpenAI({ apiKey: 'sk-bench', baseURL: `${origin}/v1`, maxRetries: 0 });
    return () => client.chat.completions.create({ model: 'bench-model', messages });
  }
  const { Client } = await import('convo-sdk');
  const client = new Client({ baseUrl: origin, token: 'bench', maxRetries: 0 });
  return name === 'create' ? () => client.chats.create({ name: 'bench' }) : () => client.chats.get(CHAT);
}

/** Child: its contender and baseline, each block timed per request. */
async function child(name: Name, origin: string): Promise<void> {
  const sdk = await caller(name, origin);
  const url = `${origin}${ROUTES[name].path}`;
  const body = JSON.stringify(ROUTES[name].request);
  const headers = { 'content-type': 'application/json', authorization: 'Bearer bench' };
  const raw = async () => {
    const response = await fetch(url, { method: 'POST', headers, body });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    return response.json();
  };
  const loop = async (call: () => Promise<unknown>, n: number) => {
    const started = performance.now();
    for (let i = 0; i < n; i++) await call();
    return (performance.now() - started) / n;
  };
  serveParent({
    warm: async () => ({ sdk: await loop(sdk, WARMUP), raw: await loop(raw, WARMUP) }),
    block: async (rawFirst) =>
      rawFirst
        ? { raw: await loop(raw, BLOCK), sdk: await loop(sdk, BLOCK) }
        : { sdk: await loop(sdk, BLOCK), raw: await loop(raw, BLOCK) },
    end: () => ({}),
  });
}

async function main(): Promise<BenchResult> {
  const routes = Object.fromEntries(
    NAMES.map((name) => [`/${name}${ROUTES[name].path}`, ROUTES[name].response]),
  );
  const server = fork(new URL('./lib/json-server.ts', import.meta.url).pathname, [JSON.stringify(routes)], {
    env: cleanEnv(),
  });
  try {
    const { port } = await new Promise<{ port: number }>((resolve) =>
      server.once('message', resolve as never),
    );
    const origin = `http://127.0.0.1:${port}`;
    const kids = new Map<Name, Child>(
      NAMES.map((name) => [
        name,
        spawnChild(import.meta.filename, ['--child', name, `${origin}/${name}`], name === 'get-otel'),
      ]),
    );
    await Promise.all([...kids.values()].map((kid) => kid.ask()));
    for (const kid of kids.values()) await kid.ask('warm');
    const blocks = new Map<Name, Array<{ sdk: number; raw: number }>>(NAMES.map((name) => [name, []]));
    const next = random(0xbe9c4);
    for (let round = 0; round < ROUNDS; round++) {
      for (let done = 0; done < N; done += BLOCK)
        for (const name of shuffle([...NAMES], next)) {
          const { sdk, raw } = await kids.get(name)!.ask('block', next() < 0.5);
          blocks.get(name)!.push({ sdk: sdk!, raw: raw! });
        }
      progress(
        `round ${round}: ${NAMES.map((n) => `${n} ${median(blocks.get(n)!.map((b) => b.sdk / b.raw)).toFixed(2)}x`).join(', ')}`,
      );
    }
    for (const kid of kids.values()) await kid.ask('end');
    const label: Record<Name, string> = {
      get: 'client.chats.get(id)',
      create: 'client.chats.create({ name })',
      'get-otel': 'client.chats.get(id), telemetry on (OpenTelemetry SDK registered)',
      anthropic: `anchor: @anthropic-ai/sdk ${versionOf('@anthropic-ai/sdk')} messages.create()`,
      openai: `anchor: openai ${versionOf('openai')} chat.completions.create()`,
    };
    const figures: Record<string, number> = {};
    const rows: Row[] = NAMES.map((name) => {
      const list = blocks.get(name)!;
      const ratios = list.map((b) => b.sdk / b.raw);
      const ratio = {
        median: median(ratios),
        min: quantile(ratios, 0.25),
        max: quantile(ratios, 0.75),
        rounds: ratios.length,
      };
      figures[`request.ratio.${name}`] = ratio.median;
      figures[`request.us.${name}`] = median(list.map((b) => b.sdk)) * 1000;
      const ours = name === 'get' || name === 'create';
      return {
        benchmark: '13 the shared request',
        figure: `${label[name]}, fixed JSON from a server in its own process`,
        versus: `${name} vs fetch + res.json()`,
        ratio,
        value: `${(median(list.map((b) => b.sdk)) * 1000).toFixed(0)} µs vs ${(median(list.map((b) => b.raw)) * 1000).toFixed(0)} µs per request`,
        ...(ours
          ? { target: 'ahead of both anchors', pass: false }
          : { target: name === 'get-otel' ? '(telemetry on)' : '(anchor)' }),
      };
    });
    const anchorBest = Math.min(figures['request.ratio.anthropic']!, figures['request.ratio.openai']!);
    for (const row of rows) if (row.pass !== undefined) row.pass = row.ratio!.median < anchorBest;
    return {
      rows,
      figures,
      notes: [
        `Benchmark 13: ${N.toLocaleString('en')} sequential requests per contender and per baseline a round, ` +
          `${ROUNDS} rounds after ${WARMUP}, blocks of ${BLOCK}; the ratio's spread is the blocks' p25–p75 ` +
          '(not min–max). Every contender and its baseline in a process of its own, the server in another.',
      ],
    };
  } finally {
    server.disconnect();
  }
}

const [mode, name, origin] = process.argv.slice(2) as [string | undefined, Name, string];
if (mode === '--child') await child(name, origin);
else emit(await main());
