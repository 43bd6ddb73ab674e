// Relaying a turn from your server to a browser: the token stays on the server. The server sends
// `stream.toReadableStream()` as the response body; the page reads it with `RelayedTurnStream.fromReadableStream`
// and folds it exactly as the server did (a recovery on the server reaches the page as one `resumed` event).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { Client, RelayedTurnStream } from 'convo-sdk';

const client = new Client();

// --- your server ---------------------------------------------------------------------------------
const server = createServer(async (request, response) => {
  const question = new URL(request.url ?? '/', 'http://relay').searchParams.get('q') ?? 'Hello';
  const stream = client.turns.stream(crypto.randomUUID(), { content: question, permission_mode: 'auto' });
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
  // If the page goes away, stop reading (the turn itself still completes and is saved).
  response.on('close', () => stream.abort());
  Readable.fromWeb(stream.toReadableStream() as import('node:stream/web').ReadableStream).pipe(response);
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const relayUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

// --- the page (the same code runs in a browser, with convo-sdk bundled) ----------------------------
const response = await fetch(`${relayUrl}/?q=${encodeURIComponent('Explain relays. [[mock:words n=8]]')}`);
const turn = RelayedTurnStream.fromReadableStream(response.body!);
turn.on('text', (_delta, snapshot) => {
  // document.querySelector('#answer').textContent = snapshot;
  process.stdout.write(`\r${snapshot}`);
});
const finished = await turn.finalTurn();
console.log(`\nrelayed ${finished.status} turn #${finished.id}: ${finished.content.split(' ').length} words`);

server.close();
