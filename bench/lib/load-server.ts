// The mock of benchmark 7, in its own process on 127.0.0.1: the mock's own fake model (directiveModel),
// timed at each delta it emits. Protocol on stdio, one JSON line each way:
//   out {url}             once listening
//   in  "report"          -> out {emitted, rssPeak, heapPeak}: emission times since the last report
//   in  "exit" or EOF     -> closes and exits (and after MAX_LIFE_MS whatever happens)
import { createInterface } from 'node:readline';
import { directiveModel, type FakeModel, type InteractionAnswer, startMockServer } from 'convo-sdk/mock';

const MAX_LIFE_MS = 5 * 60_000;
const now = () => performance.timeOrigin + performance.now();

/** Emission times of each turn's deltas, by `chat_id/message_id`. */
let emitted: Record<string, number[]> = {};

const model: FakeModel = async function* (input) {
  const times: number[] = [];
  emitted[`${input.chat_id}/${input.message_id}`] = times;
  const inner = directiveModel(input)[Symbol.asyncIterator]();
  let answer: InteractionAnswer | undefined;
  for (;;) {
    const next = await inner.next(answer);
    if (next.done) return next.value;
    if (next.value.type === 'text') times.push(now());
    answer = yield next.value;
  }
};

const server = await startMockServer({ host: '127.0.0.1', port: 0, model });
let rssPeak = 0;
let heapPeak = 0;
const sampler = setInterval(() => {
  const { rss, heapUsed } = process.memoryUsage();
  rssPeak = Math.max(rssPeak, rss);
  heapPeak = Math.max(heapPeak, heapUsed);
}, 20);
const lifetime = setTimeout(() => void stop(), MAX_LIFE_MS);

async function stop(): Promise<void> {
  clearInterval(sampler);
  clearTimeout(lifetime);
  await server.close();
  process.exit(0);
}

process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);
const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  if (line === 'report') {
    process.stdout.write(`${JSON.stringify({ emitted, rssPeak, heapPeak })}\n`);
    emitted = {};
    rssPeak = 0;
    heapPeak = 0;
  } else if (line === 'exit') {
    void stop();
  }
});
lines.on('close', () => void stop());
