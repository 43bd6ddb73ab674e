// Benchmark 8: folding after a resume. Half the answer is shown, the connection is cut, and the replay
// re-sends the whole answer as one-character deltas: catching up must cost the replay's length, not the
// shown text's length for each delta (quadratic: 100,000 shown + 200,000 replayed took over 11 s).
import { Client } from 'convo-sdk';
import { type BenchResult, emit } from './lib/result.ts';
import { CHAT, completedEvent, sseEvent, startEvent } from './lib/sse.ts';
import { median, progress } from './lib/stats.ts';

const encoder = new TextEncoder();

/** The first connection (half the answer in one delta, then cut) and the replay (every character). */
function bodies(chars: number): [Uint8Array, Uint8Array] {
  const answer = 'a'.repeat(chars);
  const first =
    startEvent() + sseEvent('message.delta', { text: answer.slice(0, chars / 2), replace: false });
  const delta = sseEvent('message.delta', { text: 'a', replace: false });
  const replay = startEvent() + delta.repeat(chars) + completedEvent(answer);
  return [encoder.encode(first), encoder.encode(replay)];
}

/** Milliseconds to read the cut stream and its replay to the end. */
async function once(chars: number): Promise<number> {
  const [first, replay] = bodies(chars);
  let calls = 0;
  const fetch = async () =>
    new Response(new Blob([calls++ === 0 ? first : replay]).stream(), {
      headers: { 'content-type': 'text/event-stream' },
    });
  const client = new Client({
    baseUrl: 'https://api.test',
    token: 'bench',
    fetch,
    retryDelay: { min: 0, max: 0 },
  });
  const started = performance.now();
  const stream = client.turns.stream(CHAT, { content: 'x' });
  const text = await stream.finalText();
  const ms = performance.now() - started;
  if (text.length !== chars || calls !== 2) throw new Error('the resumed stream folded the wrong text');
  return ms;
}

async function main(): Promise<BenchResult> {
  const sizes = [250_000, 1_000_000];
  const times: Record<number, number> = {};
  for (const chars of sizes) {
    const runs: number[] = [];
    for (let i = 0; i < 5; i++) {
      globalThis.gc?.();
      runs.push(await once(chars));
    }
    times[chars] = median(runs);
    progress(`${chars} characters replayed: ${times[chars]!.toFixed(0)} ms`);
  }
  const perChar = (chars: number) => (times[chars]! * 1e6) / chars;
  const growth = perChar(1_000_000) / perChar(250_000);
  return {
    rows: [
      {
        benchmark: '8 fold after a resume',
        figure: '1,000,000 one-character deltas replayed after 500,000 shown (client.turns.stream)',
        versus: 'per character, 1M vs 250k',
        ratio: undefined,
        value: `${times[1_000_000]!.toFixed(0)} ms; ${perChar(1_000_000).toFixed(0)} vs ${perChar(250_000).toFixed(0)} ns per character (${growth.toFixed(2)}x)`,
        target: 'linear: ≤ 2x per character',
        pass: growth <= 2,
      },
    ],
    notes: [],
  };
}

emit(await main());
