import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** An answer on its way back through the proxy: what a fault may change. */
export interface Passing {
  /** The request's method and path (`GET /api/v1/chats`). */
  call: string;
  /** The status. */
  status: number;
  /** The content type. */
  contentType: string;
  /** The whole body, as text. */
  body: string;
  /** The bearer token the client sent (before any mapping to the upstream's). */
  token: string | undefined;
}

/** A way of breaking the contract: changes an answer on its way back. */
export type Fault = (answer: Passing) => Passing;

/** A proxy in front of `upstream` that applies `fault` to every answer (bodies read whole, then sent). */
export interface FaultProxy {
  /** The proxy's base URL. */
  readonly url: string;
  /** Stops it. */
  close(): Promise<void>;
}

const FORWARDED = ['authorization', 'idempotency-key', 'content-type', 'accept'];

async function readBody(request: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return chunks.length > 0 ? Buffer.concat(chunks).toString() : undefined;
}

/** What a proxy may do besides its fault. */
export interface ProxyOptions {
  /** Bearer tokens the proxy accepts, each mapped to the upstream's (any other is passed on as it is). */
  tokens?: Readonly<Record<string, string>>;
}

/** Starts a proxy to `upstream` on a free loopback port. */
export async function startFaultProxy(
  upstream: string,
  fault: Fault,
  options: ProxyOptions = {},
): Promise<FaultProxy> {
  const server: Server = createServer(async (request, response) => {
    const headers: Record<string, string> = {};
    for (const name of FORWARDED) {
      const value = request.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    const token = /^Bearer (.*)$/.exec(headers.authorization ?? '')?.[1];
    const mapped = token === undefined ? undefined : options.tokens?.[token];
    if (mapped !== undefined) headers.authorization = `Bearer ${mapped}`;
    const answer = await fetch(new URL(request.url ?? '/', upstream), {
      method: request.method ?? 'GET',
      headers,
      body: (await readBody(request)) ?? null,
    });
    const changed = fault({
      call: `${request.method} ${new URL(request.url ?? '/', upstream).pathname}`,
      status: answer.status,
      contentType: answer.headers.get('content-type') ?? '',
      body: await answer.text(),
      token,
    });
    response.writeHead(changed.status, { 'content-type': changed.contentType });
    response.end(changed.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** Changes a JSON body. */
const json =
  (change: (body: Record<string, unknown>, answer: Passing) => void): Fault =>
  (answer) => {
    if (!answer.contentType.includes('json')) return answer;
    const body = JSON.parse(answer.body) as Record<string, unknown>;
    change(body, answer);
    return { ...answer, body: JSON.stringify(body) };
  };

/** Changes an event-stream body. */
const events =
  (change: (body: string) => string): Fault =>
  (answer) =>
    answer.contentType.startsWith('text/event-stream') ? { ...answer, body: change(answer.body) } : answer;

/** The contract broken in chosen ways, each named as the tests name it. */
export const FAULTS = {
  '404 answered as 403': (answer: Passing) => (answer.status === 404 ? { ...answer, status: 403 } : answer),
  'a wrong message_code': json((body, answer) => {
    if (answer.status < 300) body.message_code = 'api_v1_success';
  }),
  'a missing meta.total': json((body) => {
    if (Array.isArray(body.data)) delete (body.meta as Record<string, unknown>).total;
  }),
  'an event after the terminal one': events(
    (body) => `${body}event: message.delta\ndata: {"text":" late","replace":false}\n\n`,
  ),
  'a stream without message.start': events((body) =>
    body.replace(/event: message\.start\n(data: .*\n)+\n/, ''),
  ),
} satisfies Record<string, Fault>;
