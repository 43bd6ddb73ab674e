import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { type ConvoMock, createMock, type MockOptions } from './mock.js';

/** Options of `startMockServer`: where to listen, plus the mock's own options. */
export interface MockServerOptions extends MockOptions {
  /** Interface to bind; `127.0.0.1` by default. */
  host?: string | undefined;
  /** Port; 4010 by default, 0 for any free port. */
  port?: number | undefined;
}

/** A listening mock server. */
export interface MockServer {
  /** `http://HOST:PORT` with the real port (also after `port: 0`). */
  readonly url: string;
  /** The mock behind it, to inspect or reset. */
  readonly mock: ConvoMock;
  /** Stops listening and drops open connections (streams included). */
  close(): Promise<void>;
}

/** Serves a new mock over HTTP (Node only): `const { url, close } = await startMockServer({ port: 0 })`. */
export async function startMockServer(options: MockServerOptions = {}): Promise<MockServer> {
  const { host = '127.0.0.1', port = 4010, ...mockOptions } = options;
  const mock = createMock(mockOptions);
  // overrideGlobalObjects: false, so that starting a mock never swaps the process's Request and Response.
  const server = createServer(getRequestListener(mock.handle, { overrideGlobalObjects: false }));

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });

  const address = server.address() as AddressInfo;
  const url = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
  let closing: Promise<void> | undefined;
  return {
    url,
    mock,
    close: () => {
      closing ??= new Promise<void>((resolve, reject) => {
        // Open keep-alive and streaming connections would hold close() forever (TOOLCHAIN.md).
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      });
      return closing;
    },
  };
}
