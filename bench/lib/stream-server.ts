// The server of benchmark 14, in its own process on 127.0.0.1: holds every stream open and writes to each a
// delta every DELTA_MS and a keep-alive every PING_MS, in the wire format of the path it was called on, spread
// over the period (one timer, a slot per stream), until POST /finish: then each stream's terminal event, with
// the whole answer, and its end. A request with `x-bench-warmup: 1` gets start, 3 deltas, a ping and the end
// at once. GET /stats answers what was written. Sends its port over IPC once listening; exits when the
// parent disconnects (or after ten minutes whatever happens).
//   POST /api/v1/chats/{id}/messages/stream   the contract's stream (the client, the hand-written splitter)
//   POST /v1/messages                          Anthropic Messages     POST /v1/chat/completions  OpenAI
import { createServer, type ServerResponse } from 'node:http';
import { anthropicEvents, openaiEvents, type WireEvents } from './anchor-sse.ts';
import { completedEvent, sseEvent, startEvent } from './sse.ts';

const DELTA_MS = 1000;
const PING_MS = 2000;
const TICK_MS = 50;

const convoEvents: WireEvents = {
  start: startEvent(),
  delta: (text) => sseEvent('message.delta', { text, replace: false }),
  end: completedEvent,
  ping: sseEvent('ping', { ts: 0 }),
};
const WIRES: Array<[RegExp, WireEvents]> = [
  [/^\/api\/v1\/chats\/[^/]+\/messages\/stream$/, convoEvents],
  [/^\/v1\/messages$/, anthropicEvents],
  [/^\/v1\/chat\/completions$/, openaiEvents],
];

/** The i-th delta of every stream: its sequence number, so that the client checks order and loss. */
const deltaOf = (seq: number) => ` w${seq}`;

interface Stream {
  response: ServerResponse;
  wire: WireEvents;
  seq: number;
  text: string;
}

const stats = { opened: 0, deltas: 0, pings: 0, finished: 0, closedEarly: 0 };
const slotsD = DELTA_MS / TICK_MS;
const slotsP = PING_MS / TICK_MS;
const wheelD = Array.from({ length: slotsD }, () => new Set<Stream>());
const wheelP = Array.from({ length: slotsP }, () => new Set<Stream>());
const live = new Set<Stream>();

function delta(stream: Stream): void {
  const text = deltaOf(++stream.seq);
  stream.text += text;
  stream.response.write(stream.wire.delta(text));
}

const server = createServer(
  { requestTimeout: 0, keepAliveTimeout: 5_000, noDelay: true },
  (request, response) => {
    request.resume();
    if (request.url === '/stats') return response.end(JSON.stringify(stats));
    if (request.url === '/finish') {
      for (const stream of live) {
        stream.response.end(stream.wire.end(stream.text));
        stats.finished++;
      }
      live.clear();
      for (const slot of [...wheelD, ...wheelP]) slot.clear();
      return response.end(JSON.stringify(stats));
    }
    const wire = WIRES.find(([path]) => path.test(request.url ?? ''))?.[1];
    if (!wire) {
      response.writeHead(404).end();
      return;
    }
    const stream: Stream = { response, wire, seq: 0, text: '' };
    response.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'close',
    });
    response.write(wire.start);
    if (request.headers['x-bench-warmup'] === '1') {
      for (let i = 0; i < 3; i++) delta(stream);
      response.write(wire.ping);
      response.end(wire.end(stream.text));
      return;
    }
    const k = stats.opened++;
    const [d, p] = [wheelD[k % slotsD]!, wheelP[(k + slotsP / 2) % slotsP]!];
    live.add(stream);
    d.add(stream);
    p.add(stream);
    response.on('close', () => {
      if (!live.delete(stream)) return;
      stats.closedEarly++;
      d.delete(stream);
      p.delete(stream);
    });
  },
);

// One timer drives both wheels; a late timer catches up on every tick it missed.
const t0 = performance.now();
let tick = 0;
function onTimer(): void {
  for (const due = Math.floor((performance.now() - t0) / TICK_MS); tick < due; ) {
    tick++;
    for (const stream of wheelD[tick % slotsD]!) {
      stats.deltas++;
      delta(stream);
    }
    for (const stream of wheelP[tick % slotsP]!) {
      stats.pings++;
      stream.response.write(stream.wire.ping);
    }
  }
  setTimeout(onTimer, Math.max(1, (tick + 1) * TICK_MS - (performance.now() - t0)));
}
setTimeout(onTimer, TICK_MS);

server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.send!({ port: typeof address === 'object' && address ? address.port : 0 });
});
process.on('disconnect', () => process.exit(0));
setTimeout(() => process.exit(0), 10 * 60_000).unref();
