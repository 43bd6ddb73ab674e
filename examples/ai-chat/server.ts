// The example's server: serves the built app (dist/) and answers `useChat`'s default transport at
// POST /api/chat with `ConvoChatTransport`, so the token never reaches the page; POST /api/chats opens a
// chat. `CONVO_BASE_URL=... CONVO_TOKEN=... node server.ts` (Node 24 runs TypeScript as it is).
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createUIMessageStreamResponse } from 'ai';
import { Client } from 'convo-sdk';
import { ConvoChatTransport, type ConvoUIMessage } from 'convo-sdk/ai';

/** What `POST /api/chat` receives from `useChat`'s default transport. */
interface ChatRequest {
  id: string;
  messages: ConvoUIMessage[];
  trigger: 'submit-message' | 'regenerate-message';
  messageId?: string;
}

const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };
const MAX_BODY = 1_000_000;

/** Starts the server; resolves its URL and a `close`. */
export async function startServer(options: { baseUrl: string; token: string; port?: number; dist?: string }) {
  const client = new Client({ baseUrl: options.baseUrl, token: options.token });
  // One transport for every user: it keeps a bounded record of each chat's last turn. A real app checks
  // that `body.id` is a chat of the signed-in user before it sends with the server's credential.
  const transport = new ConvoChatTransport({ client });
  const dist = options.dist ?? join(import.meta.dirname, 'dist');

  async function api(request: Request): Promise<Response> {
    const path = new URL(request.url).pathname;
    if (path === '/api/chats')
      return Response.json({ id: (await client.chats.create({ name: 'AI SDK example' })).id });
    const body = (await request.json()) as ChatRequest;
    const stream = await transport.sendMessages({
      chatId: body.id,
      messages: body.messages,
      trigger: body.trigger,
      messageId: body.messageId,
      abortSignal: request.signal,
    });
    return createUIMessageStreamResponse({ stream });
  }

  const server = createServer((req, res) => {
    if (req.method === 'POST' && req.url?.startsWith('/api/')) {
      handle(req, res, api).catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(String(error));
      });
      return;
    }
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const file = join(dist, path === '/' ? 'index.html' : path);
    const type = TYPES[extname(file)];
    if (!type || relative(dist, file).startsWith('..') || !existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': type }).end(readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Runs a web-standard handler on node:http: the body (bounded) in, the streamed response out. */
async function handle(req: IncomingMessage, res: ServerResponse, handler: (r: Request) => Promise<Response>) {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY) throw new Error('request body too large');
    chunks.push(chunk);
  }
  const aborted = new AbortController();
  res.on('close', () => aborted.abort());
  const request = new Request(`http://${req.headers.host}${req.url}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: Buffer.concat(chunks),
    signal: aborted.signal,
  });
  const response = await handler(request);
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (!response.body) return void res.end();
  const reader = response.body.getReader();
  for (;;) {
    const next = await reader.read();
    if (next.done) break;
    res.write(next.value);
  }
  res.end();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const server = await startServer({
    baseUrl: process.env.CONVO_BASE_URL ?? 'http://127.0.0.1:4010',
    token: process.env.CONVO_TOKEN ?? 'mock-token',
    port: Number(process.env.PORT ?? 5174),
  });
  console.log(`ai-chat example on ${server.url} (?mode=route)`);
}
