// The server of benchmark 13, in its own process on 127.0.0.1 (keep-alive): answers each route of the JSON
// given as the first argument ({"/path": body}) with that body, whatever the method; sends its port over IPC
// once listening, and exits when the parent disconnects (or after five minutes whatever happens).
import { createServer } from 'node:http';

/** @type {Map<string, Buffer>} */
const routes = new Map(
  Object.entries(JSON.parse(process.argv[2] ?? '{}')).map(([path, body]) => [
    path,
    Buffer.from(JSON.stringify(body)),
  ]),
);
const server = createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    const body = routes.get(String(request.url).split('?')[0] ?? '');
    response.writeHead(body ? 200 : 404, {
      'content-type': 'application/json',
      'content-length': body?.length ?? 0,
      'x-request-id': 'req_bench',
      'request-id': 'req_bench',
    });
    response.end(body);
  });
});
server.keepAliveTimeout = 30_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.send?.({ port: typeof address === 'object' && address ? address.port : 0 });
});
process.on('disconnect', () => process.exit(0));
setTimeout(() => process.exit(0), 5 * 60_000).unref();
