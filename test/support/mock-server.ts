import { Server } from 'node:http';
import { type MockServer, type MockServerOptions, startMockServer } from '../../src/mock/index.js';
import { startedForSuite } from './started.js';

/** A mock server on a free loopback port for the tests of one describe block, closed after them. */
export function useMockServer(options: MockServerOptions = {}): MockServer {
  return startedForSuite(
    () => startMockServer({ port: 0, ...options }),
    (server) => server.close(),
  );
}

/** Runs `test` against a mock server of its own on a free loopback port, closing it however `test` ends. */
export async function withMockServer<T>(test: (server: MockServer) => Promise<T>): Promise<T>;
export async function withMockServer<T>(
  options: MockServerOptions,
  test: (server: MockServer) => Promise<T>,
): Promise<T>;
export async function withMockServer<T>(
  ...args: [(server: MockServer) => Promise<T>] | [MockServerOptions, (server: MockServer) => Promise<T>]
): Promise<T> {
  const [options, test] = args.length === 1 ? [{}, args[0]] : args;
  const server = await startMockServer({ port: 0, ...options });
  try {
    return await test(server);
  } finally {
    await server.close();
  }
}

/** The node:http server listening at `url`, to count its connections or read its address. */
export function nodeServerAt(url: string): Server {
  const port = Number(new URL(url).port);
  // Node offers no public way from a URL to its server; the handle list is where a listening server is.
  const handles = (process as unknown as { _getActiveHandles(): unknown[] })._getActiveHandles();
  const found = handles.find((handle): handle is Server => {
    if (!(handle instanceof Server)) return false;
    const address = handle.address();
    return typeof address === 'object' && address !== null && address.port === port;
  });
  if (!found) throw new Error(`no node:http server listening on port ${port}`);
  return found;
}
