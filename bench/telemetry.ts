// Benchmark 12: what telemetry costs, off against on, in one process against the HTTP mock: a small call
// (chats.get) and a streamed turn of 2,000 deltas (its time to the first event and to the end). "off": no
// provider registered and none given (the default); "on": a client given the OpenTelemetry SDK's tracer and
// meter providers (every span processed and exported to an exporter that drops it, every metric recorded).
// The two clients alternate in a random order, PAIRS times a round; per figure, the median of the rounds'
// ratios of median times.

import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { Client } from 'convo-sdk';
import { startMockServer } from 'convo-sdk/mock';
import { type BenchResult, emit, type Row } from './lib/result.ts';
import { random } from './lib/sse.ts';
import { median, progress, summarize } from './lib/stats.ts';

const ROUNDS = 7;
const PAIRS = { request: 60, stream: 6 };
const TOKEN = 'mock-token';
const WORDS = 2_000;

type Side = 'off' | 'on';
type Measure = (client: Client) => Promise<Record<string, number>>;

/** Runs `measure` with each client PAIRS times a round, ROUNDS rounds after a warm-up; the medians' ratios. */
async function compare(clients: Record<Side, Client>, pairs: number, measure: Measure, label: string) {
  const next = random(11);
  const ratios = new Map<string, number[]>();
  const times = new Map<string, number[]>();
  for (let round = 0; round <= ROUNDS; round++) {
    const sample = new Map<string, number[]>();
    for (let i = 0; i < pairs; i++) {
      const order: Side[] = next() < 0.5 ? ['off', 'on'] : ['on', 'off'];
      for (const side of order) {
        for (const [figure, ms] of Object.entries(await measure(clients[side]))) {
          const key = `${figure} ${side}`;
          sample.set(key, [...(sample.get(key) ?? []), ms]);
        }
      }
    }
    const medians = new Map([...sample].map(([key, values]) => [key, median(values)]));
    progress(
      `${label} round ${round}: ${[...medians].map(([k, v]) => `${k} ${v.toFixed(3)} ms`).join(', ')}`,
    );
    if (round === 0) continue;
    for (const [key, ms] of medians) times.set(key, [...(times.get(key) ?? []), ms]);
    for (const figure of new Set([...medians.keys()].map((key) => key.replace(/ (off|on)$/, '')))) {
      const ratio = (medians.get(`${figure} on`) ?? 0) / (medians.get(`${figure} off`) ?? 1);
      ratios.set(figure, [...(ratios.get(figure) ?? []), ratio]);
    }
  }
  return [...ratios].map(([figure, values]) => ({
    figure,
    ratio: summarize(values),
    on: median(times.get(`${figure} on`) ?? []),
    off: median(times.get(`${figure} off`) ?? []),
  }));
}

async function main(): Promise<BenchResult> {
  const server = await startMockServer({ port: 0 });
  const tracerProvider = new TracerProvider({
    spanProcessors: [
      new SimpleSpanProcessor({
        exporter: { export: (_spans, done) => done({ code: 0 }), shutdown: async () => {} },
      }),
    ],
  });
  const meterProvider = new MeterProvider();
  try {
    const clients: Record<Side, Client> = {
      off: new Client({ baseUrl: server.url, token: TOKEN }),
      on: new Client({ baseUrl: server.url, token: TOKEN, telemetry: { tracerProvider, meterProvider } }),
    };
    const chat = await clients.off.chats.create({ name: 'bench' });
    const request: Measure = async (client) => {
      const started = performance.now();
      await client.chats.get(chat.id);
      return { 'chats.get': performance.now() - started };
    };
    const stream: Measure = async (client) => {
      const started = performance.now();
      let first = 0;
      for await (const event of client.turns.stream(chat.id, { content: `[[mock:words n=${WORDS}]]` }))
        if (first === 0 && event.type === 'delta') first = performance.now() - started;
      return {
        [`turns.stream, ${WORDS} deltas, to the end`]: performance.now() - started,
        'turns.stream, to the first delta': first,
      };
    };
    const results = [
      ...(await compare(clients, PAIRS.request, request, 'request')),
      ...(await compare(clients, PAIRS.stream, stream, 'stream')),
    ];
    const rows: Row[] = results.map(({ figure, ratio, on, off }) => ({
      benchmark: '12 telemetry',
      figure,
      versus: 'telemetry on vs off',
      ratio,
      value: `${on.toFixed(3)} ms vs ${off.toFixed(3)} ms`,
      target: '(reported)',
    }));
    return {
      rows,
      notes: [
        'off is the default, no provider registered: one check of the API global per call, @opentelemetry/api not loaded.',
        'on: the SDK processes every span (SimpleSpanProcessor, an exporter that drops what it gets) and records every metric.',
      ],
    };
  } finally {
    await tracerProvider.shutdown();
    await meterProvider.shutdown();
    await server.close();
  }
}

emit(await main());
