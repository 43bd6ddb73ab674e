import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { AbortError, Client } from '../../src/index.js';
import { useLoopback } from '../support/loopback.js';

// A fetch made with a Request object (as HTTP libraries often make) loses its abort once a GC ran: undici holds the
// request's signal weakly. These tests force a GC between the response and the abort, over real HTTP.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** A chat whose stream goes silent after its start: only the abort itself can end the read. */
const SILENT = '3f2b1c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';
/** A chat whose stream pings every 20 ms. */
const PINGING = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
const closed: Array<() => void> = [];
let open = 0;

const server = useLoopback((request, response) => {
  open++;
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  const chat = request.url?.includes(PINGING) ? PINGING : SILENT;
  response.write(`event: message.start\ndata: {"chat_id":"${chat}","message_id":1,"request_id":"r"}\n\n`);
  const timer =
    chat === PINGING &&
    setInterval(() => response.write(`event: ping\ndata: {"ts":${Date.now() / 1000}}\n\n`), 20);
  request.socket.on('close', () => {
    if (timer) clearInterval(timer);
    open--;
    closed.shift()?.();
  });
});

function connectionClosed(): Promise<void> {
  return new Promise((resolve, reject) => {
    // A hang guard: an open connection stays open for ever; a closed one closes within ms, even when busy.
    const timer = setTimeout(() => reject(new Error('the connection stayed open after the abort')), 15_000);
    closed.push(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

describe('abort after a garbage collection', () => {
  it("the caller's signal frees the connection even after a forced GC", async () => {
    const controller = new AbortController();
    const stream = new Client({ baseUrl: server.url, token: 't' }).turns.stream(
      SILENT,
      { content: 'x' },
      { signal: controller.signal },
    );
    const iterator = stream[Symbol.asyncIterator]();
    expect((await iterator.next()).value).toMatchObject({ type: 'start' });
    gc();
    gc();
    const gone = connectionClosed();
    controller.abort();
    await expect(iterator.next()).rejects.toBeInstanceOf(AbortError);
    await gone;
    expect(open).toBe(0);
  });

  it('stream.abort() frees the connection even after a forced GC', async () => {
    const stream = new Client({ baseUrl: server.url, token: 't' }).turns.stream(SILENT, { content: 'x' });
    const iterator = stream[Symbol.asyncIterator]();
    await iterator.next();
    gc();
    const gone = connectionClosed();
    stream.abort();
    await expect(iterator.next()).rejects.toBeInstanceOf(AbortError);
    await gone;
  });

  it('breaking out of a for await frees the connection', async () => {
    const stream = new Client({ baseUrl: server.url, token: 't' }).turns.stream(
      PINGING,
      { content: 'x' },
      { pings: true },
    );
    const gone = connectionClosed();
    for await (const event of stream) if (event.type === 'ping') break;
    gc();
    await gone;
  });
});
