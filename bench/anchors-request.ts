// Benchmark 13: the shared harness's request workload, anchors beside, measured as the harness measures it. A
// node:http server in its own process (bench/lib/json-server.mjs) answers a fixed, valid JSON for each
// contender's simplest call: the client's `chats.get` and `chats.create`, @anthropic-ai/sdk's `messages.create`
// and openai's `chat.completions.create` (`maxRetries: 0` for all). A plain-JavaScript process
// (bench/lib/request-child.mjs) runs, as the harness's does, every call and every baseline (raw `fetch` POSTing
// the same body to the same URL, `res.json()`) as runners of their own: N calls per runner a round, ROUNDS
// rounds after WARMUP each, in blocks of BLOCK calls, all runners shuffled anew for every block (the harness's
// seed). The ratio: the median over the blocks of (SDK block / its baseline's block of the same turn). Three
// such processes, one after another, each with the harness's set of contenders (openai, anthropic, the
// client): `chats.get` (the harness's `bench:request`), `chats.create` (its `OURS_REQUEST=create`), and
// `chats.get` with telemetry on (the OpenTelemetry SDK registered in that process). The anchors' ratios: the
// blocks of the first two processes together.
import { fork } from 'node:child_process';
import { versionOf } from './lib/anchors.ts';
import { cleanEnv, spawnChild } from './lib/child.ts';
import { type BenchResult, emit, type Row } from './lib/result.ts';
import { median, progress, quantile, SMOKE } from './lib/stats.ts';

const N = SMOKE ? 100 : 2_000;
const ROUNDS = SMOKE ? 1 : 3;
const WARMUP = SMOKE ? 20 : 200;
const BLOCK = 20;
const NAMES = ['get', 'create', 'get-otel', 'anthropic', 'openai'] as const;
type Name = (typeof NAMES)[number];
/** The three processes: which call of the client each makes, and whether telemetry is on. */
const RUNS = [
  { name: 'get', call: 'get', telemetry: false },
  { name: 'create', call: 'create', telemetry: false },
  { name: 'get-otel', call: 'get', telemetry: true },
] as const;

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

/** Each call's route (under its mount: the client's /ours, as in the harness), the body it is answered, the body the baseline sends. */
const ROUTES = {
  get: { mount: 'ours', path: `/api/v1/chats/${CHAT}`, response: CHAT_BODY, request: { name: 'bench' } },
  create: { mount: 'ours', path: '/api/v1/chats', response: CHAT_BODY, request: { name: 'bench' } },
  anthropic: {
    mount: 'anthropic',
    path: '/v1/messages',
    response: ANTHROPIC_BODY,
    request: { model: 'bench-model', max_tokens: 16, messages },
  },
  openai: {
    mount: 'openai',
    path: '/v1/chat/completions',
    response: OPENAI_BODY,
    request: { model: 'bench-model', messages },
  },
};
type Call = keyof typeof ROUTES;
/** A block's time per call: the SDK's and its baseline's. */
type Block = { sdk: number; raw: number };

/** One process of the harness's method with the harness's contenders (openai, anthropic, the client's `call`). */
async function measure(
  origin: string,
  call: 'get' | 'create',
  telemetry: boolean,
): Promise<Map<Call, Block[]>> {
  const contenders = (['openai', 'anthropic', call] as const).map((name) => {
    const { mount, path, request, response } = ROUTES[name];
    return { name, mount: `${origin}/${mount}`, path, request, id: (response as { id?: string }).id };
  });
  const kid = spawnChild(new URL('./lib/request-child.mjs', import.meta.url).pathname, [], telemetry, false);
  await kid.ask();
  const blocks = (await kid.ask('run', {
    contenders,
    n: N,
    rounds: ROUNDS,
    warmup: WARMUP,
    block: BLOCK,
  })) as unknown as Record<string, number[]>;
  await kid.ask('end');
  return new Map(
    contenders.map(({ name }) => [
      name,
      blocks[name]!.map((sdk, i) => ({ sdk, raw: blocks[`fetch:${name}`]![i]! })),
    ]),
  );
}

async function main(): Promise<BenchResult> {
  const routes = Object.fromEntries(
    Object.values(ROUTES).map(({ mount, path, response }) => [`/${mount}${path}`, response]),
  );
  const server = fork(new URL('./lib/json-server.mjs', import.meta.url).pathname, [JSON.stringify(routes)], {
    env: cleanEnv(),
  });
  try {
    const { port } = await new Promise<{ port: number }>((resolve) =>
      server.once('message', resolve as never),
    );
    const origin = `http://127.0.0.1:${port}`;
    const blocks = new Map<Name, Block[]>(NAMES.map((name) => [name, []]));
    for (const run of RUNS) {
      const got = await measure(origin, run.call, run.telemetry);
      blocks.get(run.name)!.push(...got.get(run.call)!);
      // The anchors: from the processes with telemetry off.
      if (!run.telemetry)
        for (const anchor of ['anthropic', 'openai'] as const) blocks.get(anchor)!.push(...got.get(anchor)!);
      progress(
        `${run.name}: ${[...got].map(([n, list]) => `${n} ${median(list.map((b) => b.sdk / b.raw)).toFixed(2)}x`).join(', ')}`,
      );
    }
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
        `Benchmark 13: ${N.toLocaleString('en')} sequential requests per runner (each call, each baseline) a round, ` +
          `${ROUNDS} rounds after ${WARMUP}, blocks of ${BLOCK} with all runners shuffled for each block, as the ` +
          "harness does; the ratio's spread is the blocks' p25–p75 (not min–max). Three plain-JavaScript processes " +
          '(openai, anthropic and `chats.get`; the same with `chats.create`; the same with `chats.get`, telemetry ' +
          "on), the server in another; the anchors' ratios from the first two.",
      ],
    };
  } finally {
    server.disconnect();
  }
}

emit(await main());
