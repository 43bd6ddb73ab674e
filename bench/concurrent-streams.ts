// Benchmark 14: the shared harness's concurrent workload, anchors beside. N streams held open at once through
// each contender's public API, against a server in its own process (bench/lib/stream-server.ts) that writes
// each stream a delta every second and a keep-alive every two, in the contender's own wire format. Per
// contender, one at a time, a fresh server and a fresh `node --expose-gc` client process: two warm-up streams,
// a GC, the kernel's high-water mark reset (Linux), then N streams opened (at most OPENING at once), held
// HOLD_S seconds once all have their first event, then ended by the server with their terminal event; every
// stream must see its start, every delta once and in order, and its end.
// Figures, in the client process: CPU per delivered event (user + system over the hold, divided by the events
// the client read: its deltas times the server's events per delta), retained heap per stream (heap after a GC
// at the end of the hold minus before opening, / N), peak RSS per stream (VmHWM at the end minus the RSS
// before opening, / N), the event loop's delay p99 over the hold, and failures.
import { fork } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { versionOf } from './lib/anchors.ts';
import { cleanEnv, serveParent, spawnChild } from './lib/child.ts';
import { type BenchResult, emit, type Row } from './lib/result.ts';
import { CHAT } from './lib/sse.ts';
import { progress, SMOKE } from './lib/stats.ts';

const N = Number(process.env.BENCH_STREAMS ?? (SMOKE ? 20 : 2_000));
const HOLD_S = SMOKE ? 2 : 20;
const OPENING = 256;
const NAMES = ['splitter', 'client', 'client-otel', 'anthropic', 'openai'] as const;
type Name = (typeof NAMES)[number];

/** What one stream saw, checked as it goes: the deltas are ` w1`, ` w2`, ... */
class Seen {
  opened = false;
  deltas = 0;
  bad = 0;
  ended = false;
  text = '';
  private readonly onOpen: () => void;
  constructor(onOpen: () => void) {
    this.onOpen = onOpen;
  }
  open(): void {
    if (this.opened) this.bad++;
    this.opened = true;
    this.onOpen();
  }
  delta(text: string): void {
    if (text !== ` w${++this.deltas}`) this.bad++;
    this.text += text;
  }
  end(content?: string): void {
    if (this.ended || (content !== undefined && content !== this.text)) this.bad++;
    this.ended = true;
  }
}
type Run = (seen: Seen, warm: boolean) => Promise<void>;

const messages = [{ role: 'user' as const, content: 'hi' }];
const headersOf = (warm: boolean): Record<string, string> => (warm ? { 'x-bench-warmup': '1' } : {});

/** Each contender's stream through its public API, its package imported when chosen. */
async function runner(name: Name, origin: string): Promise<Run> {
  if (name === 'client' || name === 'client-otel') {
    const { Client } = await import('convo-sdk');
    const client = new Client({ baseUrl: origin, token: 'bench', maxRetries: 0 });
    return async (seen, warm) => {
      const stream = client.turns.stream(
        CHAT,
        { content: 'hi' },
        { maxResumes: 0, headers: headersOf(warm) },
      );
      for await (const event of stream) {
        if (event.type === 'start') seen.open();
        else if (event.type === 'delta') seen.delta(event.text);
        else if (event.type === 'completed') seen.end(event.turn.content);
      }
    };
  }
  if (name === 'anthropic') {
    const { default: Anthropic } = await import('@anthropic-ai/sdk');
    const client = new Anthropic({ apiKey: 'bench', baseURL: origin, maxRetries: 0 });
    return async (seen, warm) => {
      const stream = await client.messages.create(
        { model: 'm', max_tokens: 1024, messages, stream: true },
        { headers: headersOf(warm) },
      );
      for await (const event of stream) {
        if (event.type === 'message_start') seen.open();
        else if (event.type === 'content_block_delta' && event.delta.type === 'text_delta')
          seen.delta(event.delta.text);
        else if (event.type === 'message_stop') seen.end();
      }
    };
  }
  if (name === 'openai') {
    const { default: OpenAI } = await import('openai');
    const client = new OpenAI({ apiKey: 'bench', baseURL: `${origin}/v1`, maxRetries: 0 });
    return async (seen, warm) => {
      const stream = await client.chat.completions.create(
        { model: 'm', messages, stream: true },
        { headers: headersOf(warm) },
      );
      for await (const chunk of stream) {
        const choice = chunk.choices[0];
        if (!seen.opened) seen.open();
        else if (choice?.delta.content) seen.delta(choice.delta.content);
        if (choice?.finish_reason) seen.end();
      }
    };
  }
  const { splitEvents } = await import('./lib/splitter.mjs');
  return async (seen, warm) => {
    const response = await fetch(`${origin}/api/v1/chats/${CHAT}/messages/stream`, {
      method: 'POST',
      headers: { authorization: 'Bearer bench', 'content-type': 'application/json', ...headersOf(warm) },
      body: '{"content":"hi"}',
    });
    await splitEvents(response.body!, (data) => {
      const payload = JSON.parse(data) as {
        text?: string;
        chat_id?: string;
        content?: string;
        message_id?: number;
      };
      if (typeof payload.text === 'string') seen.delta(payload.text);
      else if (typeof payload.content === 'string') seen.end(payload.content);
      else if (payload.message_id !== undefined && payload.chat_id !== undefined) seen.open();
    });
  };
}

const status = () => readFileSync('/proc/self/status', 'utf8');
const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status())![1]) * 1024;
const stats = async (origin: string) =>
  (await (await fetch(`${origin}/stats`)).json()) as { deltas: number; pings: number };

/** Child: the run of one contender. */
async function child(name: Name, origin: string): Promise<void> {
  const run = await runner(name, origin);
  serveParent({
    run: async () => {
      let opened = 0;
      let waiting: Array<() => void> = [];
      const onOpen = () => {
        opened++;
        waiting.shift()?.();
      };
      for (let i = 0; i < 2; i++) {
        const seen = new Seen(() => {});
        await run(seen, true);
        if (!seen.ended || seen.deltas !== 3 || seen.bad)
          throw new Error(`${name}: the warm-up stream went wrong`);
      }
      globalThis.gc!();
      globalThis.gc!();
      const heapBefore = process.memoryUsage().heapUsed;
      writeFileSync('/proc/self/clear_refs', '5');
      const rssBefore = kb('VmRSS');
      const all: Seen[] = [];
      const done: Array<Promise<unknown>> = [];
      let failed = 0;
      for (let i = 0; i < N; i++) {
        if (all.length - opened - failed >= OPENING)
          await new Promise<void>((resolve) => waiting.push(resolve));
        const seen = new Seen(onOpen);
        all.push(seen);
        done.push(
          run(seen, false).catch(() => {
            failed++;
            seen.bad++;
            if (!seen.opened) waiting.shift()?.();
          }),
        );
      }
      while (opened + failed < N) await sleep(20);
      waiting = [];
      const loop = monitorEventLoopDelay({ resolution: 10 });
      const server0 = await stats(origin);
      const deltas0 = all.reduce((sum, seen) => sum + seen.deltas, 0);
      const cpu0 = process.cpuUsage();
      loop.enable();
      await sleep(HOLD_S * 1000);
      loop.disable();
      const cpu = process.cpuUsage(cpu0);
      const deltas = all.reduce((sum, seen) => sum + seen.deltas, 0) - deltas0;
      const server1 = await stats(origin);
      globalThis.gc!();
      const heap = process.memoryUsage().heapUsed - heapBefore;
      await fetch(`${origin}/finish`, { method: 'POST' });
      await Promise.all(done);
      const written = server1.deltas - server0.deltas;
      const delivered = (deltas * (written + server1.pings - server0.pings)) / written;
      return {
        cpuPerEventUs: (cpu.user + cpu.system) / delivered,
        heapPerStreamKB: heap / N / 1024,
        peakPerStreamKB: (kb('VmHWM') - rssBefore) / N / 1024,
        loopP99Ms: loop.percentile(99) / 1e6,
        failures: all.filter((seen) => !seen.opened || !seen.ended || seen.bad > 0).length,
      };
    },
    end: () => ({}),
  });
}

async function measure(name: Name) {
  const server = fork(new URL('./lib/stream-server.ts', import.meta.url).pathname, [], { env: cleanEnv() });
  try {
    const { port } = await new Promise<{ port: number }>((resolve) =>
      server.once('message', resolve as never),
    );
    const origin = `http://127.0.0.1:${port}`;
    const kid = spawnChild(import.meta.filename, ['--child', name, origin], name === 'client-otel');
    await kid.ask();
    const result = await kid.ask('run');
    await kid.ask('end');
    progress(`${name}: ${JSON.stringify(result)}`);
    return result;
  } finally {
    server.disconnect();
  }
}

async function main(): Promise<BenchResult> {
  const results = Object.fromEntries(
    await NAMES.reduce<Promise<Array<[Name, Record<string, number>]>>>(
      async (list, name) => [...(await list), [name, await measure(name)]],
      Promise.resolve([]),
    ),
  ) as Record<Name, Record<string, number>>;
  const label: Record<Name, string> = {
    splitter: 'fetch + hand-written splitter',
    client: 'client.turns.stream',
    'client-otel': 'client.turns.stream, telemetry on (OpenTelemetry SDK registered)',
    anthropic: `anchor: @anthropic-ai/sdk ${versionOf('@anthropic-ai/sdk')} messages.create({ stream: true })`,
    openai: `anchor: openai ${versionOf('openai')} chat.completions.create({ stream: true })`,
  };
  const BENCH = `14 ${N.toLocaleString('en')} concurrent streams`;
  const figures: Record<string, number> = { 'concurrent.n': N };
  const rows: Row[] = [];
  const anthropic = results.anthropic;
  for (const [figure, key, unit, digits] of [
    ['CPU per delivered event', 'cpuPerEventUs', 'µs', 1],
    ['retained heap per stream after GC', 'heapPerStreamKB', 'KB', 1],
    ['peak RSS per stream', 'peakPerStreamKB', 'KB', 1],
  ] as const)
    for (const name of NAMES) {
      const value = results[name][key]!;
      figures[`concurrent.${key}.${name}`] = value;
      rows.push({
        benchmark: BENCH,
        figure: `${label[name]}: ${figure}`,
        versus: `${name} vs anthropic`,
        value: `${value.toFixed(digits)} ${unit} vs ${anthropic[key]!.toFixed(digits)} ${unit}; loop delay p99 ${results[name].loopP99Ms!.toFixed(1)} ms; ${results[name].failures} failed`,
        ...(name === 'client'
          ? { target: '≤ @anthropic-ai/sdk', pass: value <= anthropic[key]! && results[name].failures === 0 }
          : {
              target:
                name === 'client-otel' ? '(telemetry on)' : name === 'splitter' ? '(reference)' : '(anchor)',
            }),
      });
    }
  return {
    rows,
    figures,
    notes: [
      `Benchmark 14: ${N.toLocaleString('en')} streams at once per contender, each a delta a second and a ` +
        `keep-alive every two in its own wire format, held ${HOLD_S} s once all were open (at most ${OPENING} ` +
        'opening at once); a fresh server and client process per contender, one contender at a time.',
    ],
  };
}

const [mode, name, origin] = process.argv.slice(2) as [string | undefined, Name, string];
if (mode === '--child') await child(name, origin);
else emit(await main());
