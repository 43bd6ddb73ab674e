// Benchmark 7: the HTTP mock (own process, 127.0.0.1) holding 1,000 concurrent streaming turns from this one
// client process. Each turn must end with the right text; the latency of an event is the time from the fake
// model emitting it (in the server) to this process having it; alternating with the same turns read by
// fetch and a hand-written splitter. Bounded: every turn has a deadline, the server a lifetime.
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface, type Interface } from 'node:readline';
import { Client } from 'convo-sdk';
import { type BenchResult, emit } from './lib/result.ts';
import { mb, median, progress, quantile, summarize } from './lib/stats.ts';

const TURNS = 1000;
const WORDS = 20;
const SLOW_MS = 20;
const ROUNDS = 5;
const DEADLINE_MS = 60_000;
const TOKEN = 'mock-token';
const CONTENT = `[[mock:words n=${WORDS}]] [[mock:slow ms=${SLOW_MS}]]`;
const EXPECTED = Array.from({ length: WORDS }, (_, i) => `word${i + 1}`).join(' ');
const now = () => performance.timeOrigin + performance.now();

/** One turn as read: its `chat_id/message_id`, when each delta arrived, and whether its text was right. */
interface Read {
  key: string;
  arrivals: number[];
  ok: boolean;
}

class Server {
  readonly #child: ChildProcess;
  readonly #lines: Interface;
  readonly #waiting: Array<(line: string) => void> = [];

  constructor() {
    const script = new URL('./lib/load-server.ts', import.meta.url).pathname;
    this.#child = spawn(process.execPath, [script], { stdio: ['pipe', 'pipe', 'inherit'] });
    this.#lines = createInterface({ input: this.#child.stdout! });
    this.#lines.on('line', (line) => this.#waiting.shift()?.(line));
  }

  async line(): Promise<unknown> {
    return JSON.parse(await new Promise<string>((resolve) => this.#waiting.push(resolve)));
  }

  async report(): Promise<{ emitted: Record<string, number[]>; rssPeak: number; heapPeak: number }> {
    const reply = this.line();
    this.#child.stdin!.write('report\n');
    return (await reply) as { emitted: Record<string, number[]>; rssPeak: number; heapPeak: number };
  }

  close(): void {
    this.#child.stdin!.end('exit\n');
    this.#lines.close();
  }
}

/** Runs `task` over `items`, `width` at a time. */
async function pool<T, R>(items: T[], width: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await task(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: width }, worker));
  return out;
}

async function viaSdk(client: Client, chatId: string): Promise<Read> {
  const stream = client.turns.stream(
    chatId,
    { content: CONTENT },
    { signal: AbortSignal.timeout(DEADLINE_MS) },
  );
  const arrivals: number[] = [];
  for await (const event of stream) if (event.type === 'delta') arrivals.push(now());
  const turn = await stream.finalTurn();
  const ok = turn.content === EXPECTED && stream.text === EXPECTED && arrivals.length === WORDS;
  return { key: `${chatId}/${stream.messageId}`, arrivals, ok };
}

/** The baseline: fetch, then the least SSE reading (as bench 1's splitter), timing each delta. */
async function viaFetch(url: string, chatId: string): Promise<Read> {
  const response = await fetch(`${url}/api/v1/chats/${chatId}/messages/stream`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${TOKEN}`,
      accept: 'text/event-stream',
      'content-type': 'application/json',
      'idempotency-key': crypto.randomUUID(),
    },
    body: JSON.stringify({ content: CONTENT }),
    signal: AbortSignal.timeout(DEADLINE_MS),
  });
  const arrivals: number[] = [];
  let key = '';
  let text = '';
  let content: string | undefined;
  let buffer = '';
  const decoder = new TextDecoder();
  for await (const chunk of response.body!) {
    buffer += decoder.decode(chunk, { stream: true });
    for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const name = /^event: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (!data) continue;
      const payload = JSON.parse(data);
      if (name === 'message.start') key = `${payload.chat_id}/${payload.message_id}`;
      else if (name === 'message.delta') {
        arrivals.push(now());
        text = payload.replace ? payload.text : text + payload.text;
      } else if (name === 'message.completed') content = payload.content;
    }
  }
  return { key, arrivals, ok: content === EXPECTED && text === EXPECTED && arrivals.length === WORDS };
}

interface Run {
  ok: number;
  latencies: number[];
  wallMs: number;
  /** CPU time of this process (user + system) during the round. */
  cpuMs: number;
  clientRssPeak: number;
  clientHeapPeak: number;
  serverRssPeak: number;
  serverHeapPeak: number;
}

async function run(server: Server, chats: string[], read: (chatId: string) => Promise<Read>): Promise<Run> {
  global.gc?.();
  let rssPeak = 0;
  let heapPeak = 0;
  const sampler = setInterval(() => {
    const { rss, heapUsed } = process.memoryUsage();
    rssPeak = Math.max(rssPeak, rss);
    heapPeak = Math.max(heapPeak, heapUsed);
  }, 20);
  const started = performance.now();
  const cpu = process.cpuUsage();
  const reads = await Promise.all(chats.map((chat) => read(chat).catch(() => undefined)));
  const wallMs = performance.now() - started;
  const { user, system } = process.cpuUsage(cpu);
  clearInterval(sampler);
  const { emitted, rssPeak: serverRssPeak, heapPeak: serverHeapPeak } = await server.report();
  const latencies: number[] = [];
  let ok = 0;
  for (const read of reads) {
    if (!read?.ok) continue;
    const sent = emitted[read.key];
    if (!sent || sent.length !== read.arrivals.length) continue;
    ok++;
    for (const [i, at] of read.arrivals.entries()) latencies.push(at - sent[i]!);
  }
  return {
    ok,
    latencies,
    wallMs,
    cpuMs: (user + system) / 1000,
    clientRssPeak: rssPeak,
    clientHeapPeak: heapPeak,
    serverRssPeak,
    serverHeapPeak,
  };
}

async function main(): Promise<BenchResult> {
  const server = new Server();
  try {
    const { url } = (await server.line()) as { url: string };
    const client = new Client({ baseUrl: url, token: TOKEN });
    const chats = await pool(
      Array.from({ length: TURNS }),
      50,
      async () => (await client.chats.create({})).id,
    );
    progress(`${chats.length} chats on ${url}`);
    const sides = {
      sdk: (chat: string) => viaSdk(client, chat),
      fetch: (chat: string) => viaFetch(url, chat),
    };
    const runs: Record<'sdk' | 'fetch', Run[]> = { sdk: [], fetch: [] };
    const ratios = { p50: [] as number[], p99: [] as number[] };
    for (let round = 0; round <= ROUNDS; round++) {
      const order = round % 2 ? (['fetch', 'sdk'] as const) : (['sdk', 'fetch'] as const);
      const got: Partial<Record<'sdk' | 'fetch', Run>> = {};
      for (const side of order) got[side] = await run(server, chats, sides[side]);
      const line = (side: 'sdk' | 'fetch') => {
        const r = got[side]!;
        return `${side} ${r.ok}/${TURNS} ok, p50 ${quantile(r.latencies, 0.5).toFixed(2)} ms, p99 ${quantile(r.latencies, 0.99).toFixed(2)} ms, ${r.wallMs.toFixed(0)} ms, cpu ${r.cpuMs.toFixed(0)} ms`;
      };
      progress(`round ${round}: ${line('sdk')}; ${line('fetch')}`);
      if (round === 0) continue; // warm-up
      for (const side of order) runs[side].push(got[side]!);
      ratios.p50.push(quantile(got.sdk!.latencies, 0.5) / quantile(got.fetch!.latencies, 0.5));
      ratios.p99.push(quantile(got.sdk!.latencies, 0.99) / quantile(got.fetch!.latencies, 0.99));
    }
    const of = (side: 'sdk' | 'fetch', q: number) => median(runs[side].map((r) => quantile(r.latencies, q)));
    const worst = (side: 'sdk' | 'fetch', pick: (r: Run) => number) => Math.max(...runs[side].map(pick));
    const allOk = runs.sdk.every((r) => r.ok === TURNS);
    return {
      rows: [
        {
          benchmark: '7 mock under load',
          figure: `${TURNS} concurrent streamed turns (${WORDS} words, ${SLOW_MS} ms apart): all right`,
          versus: 'SDK',
          value: `${Math.min(...runs.sdk.map((r) => r.ok))}/${TURNS} turns complete with the right text, each round`,
          target: 'all complete',
          pass: allOk,
        },
        {
          benchmark: '7 mock under load',
          figure: 'event latency p50, model emits → consumer has it',
          versus: 'SDK vs fetch + splitter',
          ratio: summarize(ratios.p50),
          value: `${of('sdk', 0.5).toFixed(2)} ms vs ${of('fetch', 0.5).toFixed(2)} ms`,
          target: '(reported)',
        },
        {
          benchmark: '7 mock under load',
          figure: 'event latency p99',
          versus: 'SDK vs fetch + splitter',
          ratio: summarize(ratios.p99),
          value: `${of('sdk', 0.99).toFixed(2)} ms vs ${of('fetch', 0.99).toFixed(2)} ms`,
          target: '(reported)',
        },
        {
          benchmark: '7 mock under load',
          figure: 'CPU time of the client process per round',
          versus: 'SDK vs fetch + splitter',
          ratio: summarize(runs.sdk.map((r, i) => r.cpuMs / runs.fetch[i]!.cpuMs)),
          value: `${median(runs.sdk.map((r) => r.cpuMs)).toFixed(0)} ms vs ${median(runs.fetch.map((r) => r.cpuMs)).toFixed(0)} ms`,
          target: '(reported)',
        },
        {
          benchmark: '7 mock under load',
          figure: 'peak memory, client process / mock process',
          versus: 'SDK vs fetch + splitter',
          value:
            `client heap ${mb(worst('sdk', (r) => r.clientHeapPeak))} vs ${mb(worst('fetch', (r) => r.clientHeapPeak))}, ` +
            `rss ${mb(worst('sdk', (r) => r.clientRssPeak))} vs ${mb(worst('fetch', (r) => r.clientRssPeak))}; ` +
            `mock heap ${mb(runs.sdk[0]!.serverHeapPeak)} in the first counted round, ` +
            `${mb(runs.sdk.at(-1)!.serverHeapPeak)} in the last (it keeps every turn for replays), ` +
            `rss ${mb(worst('sdk', (r) => r.serverRssPeak))}`,
          target: '(reported)',
        },
      ],
      notes: [
        `Benchmark 7: content \`${CONTENT}\`; ${TURNS} chats created first; wall time of a round ` +
          `${median(runs.sdk.map((r) => r.wallMs)).toFixed(0)} ms (SDK) vs ${median(runs.fetch.map((r) => r.wallMs)).toFixed(0)} ms (fetch).`,
      ],
    };
  } finally {
    server.close();
  }
}

emit(await main());
