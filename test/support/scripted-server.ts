import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the server got. */
export interface Seen {
  method: string;
  path: string;
  /** `performance.now()` when it arrived. */
  at: number;
}

/** Answers the `n`th request (from 1); may leave it unanswered. */
export type Script = (request: IncomingMessage, response: ServerResponse, n: number) => void;

/** A node:http server on 127.0.0.1 that answers each request as `script` says, recording what it got. */
export async function scriptedServer(script: Script) {
  const seen: Seen[] = [];
  const server = createServer((request, response) => {
    seen.push({ method: request.method ?? '', path: request.url ?? '', at: performance.now() });
    request.resume();
    script(request, response, seen.length);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Writes a JSON response. */
export function json(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}

/** A 2.1 success envelope around `data`. */
export function success(data: unknown) {
  return { status: 'success', message: 'OK', message_code: 'api_v1_ok', data, meta: { request_id: 'r-1' } };
}

/** An error body as the service sends it. */
export function failure(code: string, errorDetails?: Record<string, unknown>) {
  return {
    status: 'error',
    message: code,
    message_code: code,
    data: null,
    meta: { request_id: 'r-1', ...(errorDetails ? { error_details: errorDetails } : {}) },
  };
}
