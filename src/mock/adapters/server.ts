import type { AddressInfo } from 'node:net';
import { chunkedEventStream, isEventStream } from '../http/sse.js';
import { type ConvoMock, createMock, type MockOptions } from '../mock.js';
import { reachableHosts } from './host-names.js';

/** Options of `startMockServer`: where to listen, plus the mock's own options. */
export interface MockServerOptions extends MockOptions {
  /** Interface to bind; `127.0.0.1` by default. */
  host?: string | undefined;
  /** Port; 4010 by default, 0 for any free port. */
  port?: number | undefined;
  /**
   * Serves the inspector: a page at `/` showing the requests, turns and pending interactions live, and
   * its endpoints under `/_inspector/`, for requests whose `Host` names this server (its address,
   * `localhost` on loopback; on `0.0.0.0` or `::` also the machine's addresses and host name), so that a
   * DNS-rebinding page is refused. Off by default; `convo-mock` turns it on unless `--no-inspector`.
   */
  inspector?: boolean | undefined;
}

/** A listening mock server. */
export interface MockServer {
  /** `http://HOST:PORT` with the real port (also after `port: 0`). */
  readonly url: string;
  /** The mock behind it, to inspect or reset. */
  readonly mock: ConvoMock;
  /**
   * How many responses are still being written: after a test, anything above 0 is a response (a stream,
   * most often) that the code under test left open. Idle keep-alive connections do not count.
   */
  openResponses(): number;
  /** Stops listening and drops open connections (streams included). */
  close(): Promise<void>;
}

/**
 * Serves a new mock over HTTP (Node only): `const { url, close } = await startMockServer({ port: 0 })`.
 * The Node modules are imported here, not at the top, so that a browser bundle importing `createMock`
 * from `convo-sdk/mock` pulls in none of them.
 */
export async function startMockServer(options: MockServerOptions = {}): Promise<MockServer> {
  const [{ createServer }, { getRequestListener }, { RESPONSE_ALREADY_SENT }] = await Promise.all([
    import('node:http'),
    import('@hono/node-server'),
    import('@hono/node-server/utils/response'),
  ]);
  const { host = '127.0.0.1', port = 4010, inspector: withInspector = false, ...mockOptions } = options;
  const mock = createMock(mockOptions);
  const inspector = withInspector
    ? (await import('../inspector/inspector.js')).createInspector(mock)
    : undefined;
  // overrideGlobalObjects: false, so that starting a mock never swaps the process's Request and Response.
  const listener = getRequestListener(
    async (request, env) => {
      const own = await inspector?.handle(request);
      if (own) return own;
      const response = await (inspector ? inspector.exchange(request) : mock.handle(request));
      if (response.type === 'error') {
        // A `drop` fault: the connection goes away without a response.
        env.incoming.socket.destroy();
        return RESPONSE_ALREADY_SENT;
      }
      if (!isEventStream(response)) return response;
      return chunkedEventStream(
        response,
        resetOnError(response.body, () => env.incoming.socket.destroy()),
      );
    },
    { overrideGlobalObjects: false },
  );
  const server = createServer(listener);
  // A response closes when it has been written or its connection went away, whichever comes first.
  let open = 0;
  server.on('request', (_request, response) => {
    open += 1;
    response.once('close', () => {
      open -= 1;
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });

  const address = server.address() as AddressInfo;
  const url = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
  if (inspector) inspector.listening(reachableHosts(url, await machineNames()));
  let closing: Promise<void> | undefined;
  return {
    url,
    mock,
    openResponses: () => open,
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

/** The machine's interface addresses and host name, read when the inspector needs them. */
async function machineNames(): Promise<{ addresses: string[]; hostname: string }> {
  const os = await import('node:os');
  const addresses = Object.values(os.networkInterfaces()).flatMap((list) =>
    (list ?? []).map((info) => info.address),
  );
  return { addresses, hostname: os.hostname() };
}

/** How long a cut stream stays open after its last byte before the reset (see `resetOnError`). */
const RESET_DELAY_MS = 50;

/**
 * `body`, except that an error (a stream fault cutting it) becomes a connection reset through `reset`,
 * which is what a cut is over a socket, without the adapter logging the error. The reset waits a little:
 * a fetch client errors its body at once on a reset, dropping bytes it received but had not read yet, and
 * the fault promises that the events before the cut arrive.
 */
function resetOnError(body: ReadableStream<Uint8Array>, reset: () => void): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let broken = false;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        // Neither data nor an end after the cut: the body stays open until the reset closes the socket.
        if (broken) return new Promise<void>(() => {});
        try {
          const { done, value } = await reader.read();
          if (done) controller.close();
          else controller.enqueue(value);
        } catch {
          broken = true;
          setTimeout(reset, RESET_DELAY_MS);
        }
      },
      cancel(reason) {
        return reader.cancel(reason).catch(() => {});
      },
    },
    { highWaterMark: 0 },
  );
}
