// Where the time to the first event goes, stage by stage: each stage reads the same message.start, enqueued
// after the reader has waited 5 ms (the machine idles meanwhile, as between a service's events), and the
// delay to its consumer is timed. Each stage adds one layer to the one before: the bare reader, the SSE
// reader (`readEvents`: TextDecoder, its event parser, the watchdog), the stream state (decode with the
// contract's schema, the handler), the relayed stream (delivery, the event stream), the client's stream.
// Then the decode of that event alone, after the same idle and in a hot loop.
// Run: node bench/tools/first-event-stages/run.mjs
import { setTimeout as sleep } from 'node:timers/promises';
import { Client, RelayedTurnStream } from '../../../src/index.js';
import { decode } from '../../../src/stream/decode.js';
import { StreamState } from '../../../src/stream/map.js';
import { readEvents } from '../../../src/stream/sse.js';
import { CHAT, completedEvent, startEvent } from '../../lib/sse.ts';

const encoder = new TextEncoder();
const first = encoder.encode(startEvent());
const last = encoder.encode(completedEvent(''));
const IDLE_MS = 5;

type Reader = { next(): Promise<{ done?: boolean | undefined }> };
const stages: Record<string, (body: ReadableStream<Uint8Array>) => Reader> = {
  'bare reader.read()': (body) => {
    const reader = body.getReader();
    return { next: async () => ({ done: (await reader.read()).done }) };
  },
  '+ readEvents': (body) => readEvents(body, { idleMs: 45_000, maxBytes: 64 * 1024 * 1024 }),
  '+ StreamState.take': (body) =>
    readEvents(
      body,
      { idleMs: 45_000, maxBytes: 64 * 1024 * 1024 },
      new StreamState<unknown>({ pings: false, logger: undefined, interaction: (raw) => raw, rereads: 0 })
        .take,
    ),
  '+ delivery (RelayedTurnStream)': (body) =>
    RelayedTurnStream.fromReadableStream(body)[Symbol.asyncIterator](),
  'client.turns.stream': (body) => {
    const fetch = async () => new Response(body, { headers: { 'content-type': 'text/event-stream' } });
    const client = new Client({ baseUrl: 'https://api.test', token: 'bench', fetch });
    return client.turns.stream(CHAT, { content: 'x' })[Symbol.asyncIterator]();
  },
};

async function sample(open: (body: ReadableStream<Uint8Array>) => Reader): Promise<number> {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
  });
  const events = open(body);
  let at = 0;
  const delivered = events.next().then(() => performance.now() - at);
  await sleep(IDLE_MS);
  at = performance.now();
  controller.enqueue(first);
  const delay = await delivered;
  controller.enqueue(last);
  controller.close();
  while (!(await events.next()).done);
  return delay;
}

const median = (values: number[]) => values.sort((a, b) => a - b)[values.length >> 1]!;
const us = (ms: number) => `${(ms * 1000).toFixed(1)} µs`;
const names = Object.keys(stages);
for (const name of names) for (let i = 0; i < 200; i++) await sample(stages[name]!);
const delays: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
for (let round = 0; round < 60; round++)
  for (const name of names) delays[name]!.push(await sample(stages[name]!));
for (const name of names) console.log(`${name.padEnd(32)} ${us(median(delays[name]!))}`);

const raw = { event: 'message.start', data: /data: (.*)/.exec(startEvent())![1]! };
const timed = async (work: () => unknown, idle: boolean) => {
  const times: number[] = [];
  for (let i = 0; i < 60; i++) {
    if (idle) await sleep(IDLE_MS);
    const started = performance.now();
    work();
    times.push(performance.now() - started);
  }
  return median(times);
};
for (const [label, work] of [
  ['decode(message.start)', () => decode(raw)],
  ['JSON.parse of its data', () => JSON.parse(raw.data)],
] as const)
  console.log(
    `${label.padEnd(32)} ${us(await timed(work, true))} after ${IDLE_MS} ms idle, ${us(await timed(work, false))} hot`,
  );
