// Benchmark 2: time from enqueueing one event to the consumer having it, while the body stays open.
import { setTimeout as sleep } from 'node:timers/promises';
import { Client, RelayedTurnStream, type TurnStreamEvent } from 'convo-sdk';
import { type BenchResult, emit } from './lib/result.ts';
import { CHAT, completedEvent, startEvent } from './lib/sse.ts';
import { median, progress, summarize } from './lib/stats.ts';

const HOLD_MS = 500;
const ROUNDS = 7;
const encoder = new TextEncoder();
const first = encoder.encode(startEvent());
const last = encoder.encode(completedEvent(''));

type Side = 'client' | 'turnstream' | 'reader';

/** The events of `body` as an application reads them: `client.turns.stream` over an injected fetch. */
function viaClient(body: ReadableStream<Uint8Array>): AsyncIterator<TurnStreamEvent> {
  const fetch = async () => new Response(body, { headers: { 'content-type': 'text/event-stream' } });
  const client = new Client({ baseUrl: 'https://api.test', token: 'bench', fetch });
  return client.turns.stream(CHAT, { content: 'x' })[Symbol.asyncIterator]();
}

/**
 * One sample: the consumer waits, one event is enqueued, the body then stays open for HOLD_MS before the
 * terminal event and the end. A reader that buffers would deliver only after the hold: a delay >= HOLD_MS.
 */
async function sample(side: Side): Promise<number> {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
  });
  let enqueuedAt = 0;
  let drain: () => Promise<void>;
  let delivered: Promise<number>;
  if (side !== 'reader') {
    const events =
      side === 'client'
        ? viaClient(body)
        : RelayedTurnStream.fromReadableStream(body)[Symbol.asyncIterator]();
    delivered = events.next().then((next) => {
      if (next.done || next.value.type !== 'start') throw new Error('expected the start event');
      return performance.now() - enqueuedAt;
    });
    drain = async () => {
      while (!(await events.next()).done);
    };
  } else {
    const reader = body.getReader();
    delivered = reader.read().then(() => performance.now() - enqueuedAt);
    drain = async () => {
      while (!(await reader.read()).done);
    };
  }
  await sleep(20); // the consumer is waiting for bytes
  enqueuedAt = performance.now();
  controller.enqueue(first);
  await sleep(HOLD_MS);
  const delay = await Promise.race([delivered, Promise.resolve(Number.POSITIVE_INFINITY)]);
  controller.enqueue(last);
  controller.close();
  await drain();
  return Number.isFinite(delay) ? delay : await delivered;
}

/** Warms both paths up with whole turns read without a pause: the figure is that of a process already serving. */
async function warmUp(): Promise<void> {
  for (let i = 0; i < 200; i++) {
    await RelayedTurnStream.fromReadableStream(new Blob([first, last]).stream()).finalTurn();
    const events = viaClient(new Blob([first, last]).stream());
    while (!(await events.next()).done);
  }
}

async function main(): Promise<BenchResult> {
  await warmUp();
  const samples: Record<Side, number[]> = { client: [], turnstream: [], reader: [] };
  const ratios: Record<'client' | 'turnstream', number[]> = { client: [], turnstream: [] };
  for (let round = 0; round <= ROUNDS; round++) {
    const sides: Side[] = ['client', 'turnstream', 'reader'];
    const order = round % 2 ? sides.reverse() : sides;
    const got: Partial<Record<Side, number>> = {};
    for (const side of order) got[side] = await sample(side);
    progress(`round ${round}: ${sides.map((side) => `${side} ${got[side]!.toFixed(3)} ms`).join(', ')}`);
    if (round === 0) continue;
    for (const side of order) samples[side].push(got[side]!);
    ratios.client.push(got.client! / got.reader!);
    ratios.turnstream.push(got.turnstream! / got.reader!);
  }
  const reader = median(samples.reader).toFixed(3);
  const row = (side: 'client' | 'turnstream', figure: string, target: string, limit?: number) => {
    const delay = median(samples[side]);
    return {
      benchmark: '2 time to first event',
      figure,
      versus: `${side === 'client' ? 'client.turns.stream' : 'TurnStream'} vs bare reader.read()`,
      ratio: summarize(ratios[side]),
      value: `${delay.toFixed(3)} ms (max ${Math.max(...samples[side]).toFixed(3)}) vs ${reader} ms`,
      target,
      ...(limit === undefined ? {} : { pass: delay < limit }),
    };
  };
  return {
    rows: [
      row(
        'client',
        `enqueue → client.turns.stream consumer (injected fetch), body held open ${HOLD_MS} ms`,
        '< 0.3 ms (median)',
        0.3,
      ),
      row(
        'turnstream',
        `enqueue → RelayedTurnStream.fromReadableStream consumer, body held open ${HOLD_MS} ms`,
        '(reference)',
      ),
    ],
    notes: [],
  };
}

emit(await main());
