import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServer as createNetServer } from 'node:net';
import { startedForSuite } from './started.js';

/** A node:http server on 127.0.0.1 for one test file: its URL, the requests it got, and `close()`. */
export interface Loopback {
  url: string;
  requests: { method: string; url: string; headers: IncomingMessage['headers'] }[];
  close(): Promise<void>;
}

/** Starts a loopback server answering with `handle`; every request is recorded before it is answered. */
export async function loopback(
  handle: (request: IncomingMessage, response: ServerResponse) => void,
): Promise<Loopback> {
  const requests: Loopback['requests'] = [];
  const server = createServer((request, response) => {
    requests.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers });
    handle(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A loopback server for the tests of one describe block (or file): started before them, closed after. */
export function useLoopback(handle: (request: IncomingMessage, response: ServerResponse) => void): Loopback {
  return startedForSuite(
    () => loopback(handle),
    (server) => server.close(),
  );
}

/** Writes a JSON success envelope around `data`. */
export function sendOk(response: ServerResponse, data: unknown, meta: Record<string, unknown> = {}): void {
  response.writeHead(200, { 'content-type': 'application/json' });
  response.end(
    JSON.stringify({
      status: 'success',
      message: 'OK',
      message_code: 'api_v1_ok',
      data,
      meta: { request_id: 'req-1', ...meta },
    }),
  );
}

/** A free loopback port. */
export async function freePort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}
