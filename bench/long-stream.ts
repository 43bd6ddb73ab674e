// Benchmark 6: 1,000,000 deltas through TurnStream; the live heap, measured after a full GC at checkpoints,
// should grow with the text and nothing else. Needs --expose-gc.
import { RelayedTurnStream } from 'convo-sdk';
import { type BenchResult, emit } from './lib/result.ts';
import { completedEvent, deltaText, sseEvent, startEvent } from './lib/sse.ts';
import { mb, progress } from './lib/stats.ts';

const DELTAS = 1_000_000;
const PER_CHUNK = 500;
const CHECKPOINTS = 4;
const gc = globalThis.gc!;
const heap = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};

interface Checkpoint {
  deltas: number;
  chars: number;
  live: number;
}

/** The turn's answer, for the terminal event. */
function answer(): string {
  const parts: string[] = [];
  for (let i = 0; i < DELTAS; i++) parts.push(deltaText(i));
  return parts.join('');
}

/** A body that makes its chunks as they are read: the source holds nothing. */
function body(onCheckpoint: (deltas: number, chars: number) => void): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let sent = 0;
  let chars = 0;
  let ended = false;
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (ended) return controller.close();
        if (sent > 0 && sent % (DELTAS / CHECKPOINTS) === 0) onCheckpoint(sent, chars);
        if (sent === DELTAS) {
          ended = true;
          return controller.enqueue(encoder.encode(completedEvent(answer())));
        }
        let text = sent === 0 ? startEvent() : '';
        for (let end = sent + PER_CHUNK; sent < end; sent++) {
          const delta = deltaText(sent);
          chars += delta.length;
          text += sseEvent('message.delta', { text: delta, replace: false });
        }
        controller.enqueue(encoder.encode(text));
      },
    },
    { highWaterMark: 0 },
  );
}

/** Bytes per char of a flat V8 string holding `text`: one byte when every char fits Latin-1, else two. */
const flatBytesPerChar = (text: string) => ([...text].some((c) => c.charCodeAt(0) > 0xff) ? 2 : 1);

async function main(): Promise<BenchResult> {
  // Compile the paths first, so that code is not counted as growth.
  await RelayedTurnStream.fromReadableStream(
    new Blob([startEvent(), completedEvent('')]).stream(),
  ).finalTurn();
  const base = heap();
  const checkpoints: Checkpoint[] = [];
  let peak = 0;
  const stream = RelayedTurnStream.fromReadableStream(
    body((deltas, chars) => {
      const live = heap() - base;
      checkpoints.push({ deltas, chars, live });
      progress(`${deltas} deltas: live heap +${mb(live)} for ${chars} chars of text`);
    }),
  );
  let count = 0;
  for await (const event of stream) {
    if (event.type === 'delta' && ++count % 50_000 === 0) {
      const used = process.memoryUsage().heapUsed - base;
      if (used > peak) peak = used;
    }
  }
  if (count !== DELTAS) throw new Error('wrong count');
  const after = heap() - base;
  const text = stream.text;
  const flat = flatBytesPerChar(text);
  // The growth between checkpoints, per char of text added: constant when only the text grows.
  const slopes = checkpoints.map((c, i) => {
    const prev = checkpoints[i - 1] ?? { chars: 0, live: 0 };
    return (c.live - prev.live) / (c.chars - prev.chars);
  });
  const drift = Math.max(...slopes) / Math.min(...slopes);
  const last = checkpoints.at(-1)!;
  const perChar = last.live / last.chars;
  const textBytes = text.length * flat;
  return {
    rows: [
      {
        benchmark: '6 long stream memory',
        figure: `${DELTAS.toLocaleString('en')} deltas: live heap growth per char of text, each quarter`,
        versus: 'growth vs a flat string of the text',
        ratio: {
          median: perChar / flat,
          min: Math.min(...slopes) / flat,
          max: Math.max(...slopes) / flat,
          rounds: slopes.length,
        },
        value: `${slopes.map((x) => x.toFixed(1)).join(' / ')} B/char (flat string ${flat} B/char); +${mb(last.live)} live at the end`,
        target: 'flat apart from the text',
        pass: drift < 1.25,
      },
      {
        benchmark: '6 long stream memory',
        figure: 'heap before → after (turn finished, stream still referenced)',
        versus: 'retained vs the text',
        ratio: { median: after / textBytes, min: after / textBytes, max: after / textBytes, rounds: 1 },
        value: `+${mb(after)} retained for ${mb(textBytes)} of text; peak +${mb(peak)} (garbage included)`,
        target: '(reported)',
      },
    ],
    notes: [
      `Benchmark 6: the ${text.length.toLocaleString('en')}-char answer; growth per char between quarters varies by ` +
        `${drift.toFixed(2)}x (max/min).`,
    ],
  };
}

emit(await main());
