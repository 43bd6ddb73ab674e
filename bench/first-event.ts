// Benchmark 2: time from enqueueing one event to the consumer having it, while the body stays open.
import { setTimeout as sleep } from 'node:timers/promises';
import { TurnStream } from 'convo-sdk';
import { type BenchResult, emit } from './lib/result.ts';
import { completedEvent, startEvent } from './lib/sse.ts';
import { median, progress, summarize } from './lib/stats.ts';

const HOLD_MS = 500;
const ROUNDS = 7;
const encoder = new TextEncoder();
const first = encoder.encode(startEvent());
const last = encoder.encode(completedEvent(''));

type Side = 'turnstream' | 'reader';

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
  if (side === 'turnstream') {
    const stream = TurnStream.fromReadableStream(body);
    const events = stream[Symbol.asyncIterator]();
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
    const body = new Blob([first, last]).stream();
    await TurnStream.fromReadableStream(body).finalTurn();
  }
}

async function main(): Promise<BenchResult> {
  await warmUp();
  const samples: Record<Side, number[]> = { turnstream: [], reader: [] };
  const ratios: number[] = [];
  for (let round = 0; round <= ROUNDS; round++) {
    const order: Side[] = round % 2 ? ['reader', 'turnstream'] : ['turnstream', 'reader'];
    const got: Partial<Record<Side, number>> = {};
    for (const side of order) got[side] = await sample(side);
    progress(
      `round ${round}: turnstream ${got.turnstream!.toFixed(3)} ms, reader ${got.reader!.toFixed(3)} ms`,
    );
    if (round === 0) continue;
    samples.turnstream.push(got.turnstream!);
    samples.reader.push(got.reader!);
    ratios.push(got.turnstream! / got.reader!);
  }
  const delay = median(samples.turnstream);
  const worst = Math.max(...samples.turnstream);
  return {
    rows: [
      {
        benchmark: '2 time to first event',
        figure: `enqueue → TurnStream consumer, body held open ${HOLD_MS} ms`,
        versus: 'TurnStream vs bare reader.read()',
        ratio: summarize(ratios),
        value: `${delay.toFixed(3)} ms (max ${worst.toFixed(3)}) vs ${median(samples.reader).toFixed(3)} ms`,
        target: '< 0.5 ms (median)',
        pass: delay < 0.5,
      },
    ],
    notes: [],
  };
}

emit(await main());
