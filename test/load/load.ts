// Load test of the mock's HTTP server and the client (npm run test:load): 1,000 concurrent streamed turns,
// then 10,000 synchronous turns, all on 127.0.0.1, each loop bounded in count and time. Every turn must be
// listed with a terminal status and the content its caller received, no key may run twice, and memory
// must come back to its baseline once the server is closed. Prints the figures; exits 1 on any failure.
// Runs the built package (dist), like the benchmarks: `npm run build` first (the script does).
import { Client, type TurnStreamEvent } from 'convo-sdk';
import { directiveModel, type FakeModel, type MockServer, startMockServer } from 'convo-sdk/mock';

const STREAMS = Number(process.env.LOAD_STREAMS ?? 1_000);
const SYNC_TURNS = Number(process.env.LOAD_SYNC ?? 10_000);
const SYNC_WORKERS = 100;
/** Every phase stops by itself: past this, it is a failure. */
const PHASE_DEADLINE_MS = 180_000;
/** Heap growth allowed once everything is closed and collected. */
const HEAP_SLACK_BYTES = 8 * 1024 * 1024;
/** Short answers (mock-conventions.md). */
const STREAM_CONTENT = '[[mock:words n=5]] [[mock:slow ms=5]]';
const SYNC_CONTENT = '[[mock:words n=5]]';
const ANSWER = 'word1 word2 word3 word4 word5';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) {
  console.error('run with node --expose-gc');
  process.exit(2);
}

const failures: string[] = [];
const fail = (message: string) => {
  if (failures.length < 20) console.error(`FAIL ${message}`);
  failures.push(message);
};

/** The heap once garbage is collected; collections interleaved with turns of the event loop, so that
 * closed sockets and finished streams are released first. */
async function heap(): Promise<number> {
  for (let i = 0; i < 10; i++) {
    gc!();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return process.memoryUsage().heapUsed;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const ms = (value: number) => `${value.toFixed(0)} ms`;

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

async function deadline<T>(work: Promise<T>, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`${what} did not finish in ${PHASE_DEADLINE_MS} ms`)),
          PHASE_DEADLINE_MS,
        );
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** What the caller of one turn got. */
interface Outcome {
  chatId: string;
  key: string;
  content: string | undefined;
  status: string | undefined;
  error: string | undefined;
  ms: number;
}

// The streamed turns hold their answer until every stream has started (or 20 s passed), so that all of them
// are open at once; then the directive model answers as usual.
let openGate = () => {};
const gate = new Promise<void>((resolve) => {
  openGate = resolve;
});
const gateTimer = setTimeout(() => openGate(), 20_000);
const gatedModel: FakeModel = async function* (input) {
  await gate;
  return yield* directiveModel(input);
};

let peakRss = 0;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 50);

async function streamPhase(client: Client) {
  let open = 0;
  let peakOpen = 0;
  const firstEvent: number[] = [];
  const run = async (): Promise<Outcome> => {
    const chatId = crypto.randomUUID();
    const key = crypto.randomUUID();
    const started = performance.now();
    let printed = '';
    try {
      const stream = client.turns.stream(chatId, { content: STREAM_CONTENT }, { idempotencyKey: key });
      let counted = false;
      for await (const event of stream as AsyncIterable<TurnStreamEvent>) {
        if (event.type === 'start') {
          firstEvent.push(performance.now() - started);
          open += 1;
          counted = true;
          peakOpen = Math.max(peakOpen, open);
          if (peakOpen === STREAMS) openGate();
        }
        if (event.type === 'delta') printed = event.replace ? event.text : printed + event.text;
      }
      if (counted) open -= 1;
      const turn = await stream.finalTurn();
      if (printed !== turn.content)
        fail(
          `stream ${key}: printed ${JSON.stringify(printed)} but the turn says ${JSON.stringify(turn.content)}`,
        );
      return {
        chatId,
        key,
        content: printed,
        status: turn.status,
        error: undefined,
        ms: performance.now() - started,
      };
    } catch (error) {
      return {
        chatId,
        key,
        content: undefined,
        status: undefined,
        error: String(error),
        ms: performance.now() - started,
      };
    }
  };
  const started = performance.now();
  const outcomes = await deadline(Promise.all(Array.from({ length: STREAMS }, run)), 'the streaming phase');
  clearTimeout(gateTimer);
  openGate();
  return { outcomes, seconds: (performance.now() - started) / 1000, peakOpen, firstEvent };
}

async function syncPhase(client: Client) {
  const perWorker = Math.ceil(SYNC_TURNS / SYNC_WORKERS);
  const outcomes: Outcome[] = [];
  const worker = async (w: number) => {
    // One chat per worker: a chat runs one turn at a time (3.4).
    const chatId = crypto.randomUUID();
    for (let i = 0; i < perWorker && w * perWorker + i < SYNC_TURNS; i++) {
      const key = crypto.randomUUID();
      const started = performance.now();
      try {
        const turn = await client.turns.send(chatId, { content: SYNC_CONTENT }, { idempotencyKey: key });
        outcomes.push({
          chatId,
          key,
          content: turn.content,
          status: turn.status,
          error: undefined,
          ms: performance.now() - started,
        });
      } catch (error) {
        outcomes.push({
          chatId,
          key,
          content: undefined,
          status: undefined,
          error: String(error),
          ms: performance.now() - started,
        });
      }
    }
  };
  const started = performance.now();
  await deadline(
    Promise.all(Array.from({ length: SYNC_WORKERS }, (_, w) => worker(w))),
    'the synchronous phase',
  );
  return { outcomes, seconds: (performance.now() - started) / 1000 };
}

/** Every turn listed by its chat with a terminal status and the content its caller got; no key ran twice. */
async function verify(client: Client, server: MockServer, outcomes: Outcome[]) {
  const byChat = new Map<string, Outcome[]>();
  for (const outcome of outcomes) {
    if (outcome.error) fail(`turn ${outcome.key} failed for its caller: ${outcome.error}`);
    else if (outcome.content !== ANSWER)
      fail(`turn ${outcome.key}: the caller got ${JSON.stringify(outcome.content)}`);
    byChat.set(outcome.chatId, [...(byChat.get(outcome.chatId) ?? []), outcome]);
  }
  let listed = 0;
  for (const [chatId, sent] of byChat) {
    const messages = [];
    for await (const message of client.chats.messages(chatId, { size: 200 })) messages.push(message);
    listed += messages.length;
    if (messages.length !== sent.length)
      fail(`chat ${chatId}: ${sent.length} turns sent, ${messages.length} listed`);
    const contents = messages.map((m) => `${m.status}|${m.content}`);
    for (const outcome of sent) {
      if (!contents.includes(`completed|${outcome.content}`))
        fail(`turn ${outcome.key} is not listed as completed with its content`);
    }
    for (const message of messages) {
      if (!['completed', 'cancelled', 'error'].includes(message.status))
        fail(`turn ${message.id} is ${message.status}`);
    }
  }
  let doubled = 0;
  for (const outcome of outcomes) {
    const runs = server.mock.runs(outcome.key);
    if (runs !== 1) {
      doubled += runs > 1 ? 1 : 0;
      fail(`key ${outcome.key} ran ${runs} times`);
    }
  }
  const stored = server.mock.store.turns();
  const keys = new Set(stored.map((turn) => turn.key));
  if (keys.size !== stored.length) fail(`${stored.length - keys.size} keys hold more than one turn`);
  return { listed, doubled };
}

// Warm up (module loading, first connection) before the baseline, so that it does not count as growth.
{
  const warm = await startMockServer({ port: 0 });
  await new Client({ baseUrl: warm.url, token: 'mock-token' }).turns.send(crypto.randomUUID(), {
    content: 'warm',
  });
  await warm.close();
}
/** The whole load, in a function of its own so that the server, its mock and every turn are unreachable after. */
async function load() {
  const server = await startMockServer({ port: 0, model: gatedModel });
  if (!/^http:\/\/127\.0\.0\.1:/.test(server.url)) throw new Error(`not on loopback: ${server.url}`);
  const client = new Client({ baseUrl: server.url, token: 'mock-token', maxRetries: 0 });
  const streams = await streamPhase(client);
  const sync = await syncPhase(client);
  const all = [...streams.outcomes, ...sync.outcomes];
  const checked = await deadline(verify(client, server, all), 'the verification');
  const peakHeap = process.memoryUsage().heapUsed;
  await server.close();
  const turnMs = (outcomes: Outcome[], p: number) =>
    percentile(
      outcomes.map((o) => o.ms),
      p,
    );
  return {
    total: all.length,
    streamed: streams.outcomes.length,
    synchronous: sync.outcomes.length,
    lost: all.filter((o) => o.error || o.content !== ANSWER).length,
    ...checked,
    peakOpen: streams.peakOpen,
    streamSeconds: streams.seconds,
    firstEvent: [percentile(streams.firstEvent, 50), percentile(streams.firstEvent, 99)],
    streamTurn: [turnMs(streams.outcomes, 50), turnMs(streams.outcomes, 99)],
    syncSeconds: sync.seconds,
    syncTurn: [turnMs(sync.outcomes, 50), turnMs(sync.outcomes, 99)],
    peakHeap,
  };
}

const baseline = await heap();
const figures = await load();
clearInterval(sampler);
// Closed sockets and their buffers are released over a few turns of the loop: measure until settled.
let after = await heap();
for (let i = 0; i < 5 && after > baseline + HEAP_SLACK_BYTES; i++) after = await heap();
if (after > baseline + HEAP_SLACK_BYTES)
  fail(`the heap did not come back: ${mb(baseline)} before, ${mb(after)} after`);

const lines = [
  `| turns | ${figures.total} (${figures.streamed} streamed, ${figures.synchronous} synchronous) |`,
  `| listed with a terminal status and the caller's content | ${figures.listed} |`,
  `| lost / doubled | ${figures.lost} / ${figures.doubled} |`,
  `| streams open at once (peak) | ${figures.peakOpen} |`,
  `| streamed phase | ${figures.streamSeconds.toFixed(1)} s; first event p50 ${ms(figures.firstEvent[0]!)}, p99 ${ms(figures.firstEvent[1]!)}; turn p50 ${ms(figures.streamTurn[0]!)}, p99 ${ms(figures.streamTurn[1]!)} |`,
  `| synchronous phase | ${figures.syncSeconds.toFixed(1)} s, ${(figures.synchronous / figures.syncSeconds).toFixed(0)} turns/s with ${SYNC_WORKERS} callers; p50 ${ms(figures.syncTurn[0]!)}, p99 ${ms(figures.syncTurn[1]!)} |`,
  `| memory | heap ${mb(baseline)} before, ${mb(figures.peakHeap)} at the end of the load, ${mb(after)} after closing; peak RSS ${mb(peakRss)} |`,
];
console.log(`Load test, Node ${process.versions.node}, ${new Date().toISOString().slice(0, 10)}\n`);
console.log('| figure | value |\n|---|---|');
console.log(lines.join('\n'));
if (failures.length > 0) {
  console.error(`\n${failures.length} failure(s)`);
  process.exit(1);
}
console.log('\nno turn lost, none doubled; memory back to its baseline');
