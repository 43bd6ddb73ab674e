// The figures of RELIABILITY.md's "Options and hooks at their edges": each edge through the built package
// against a loopback HTTP server (or a port nobody listens on), timed. Not part of `npm run bench`.
// Run: npm run build && node bench/edges.ts
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, type ClientOptions, type StreamOptions } from 'convo-sdk';

const warnings: string[] = [];
process.on('warning', (warning) => warnings.push(warning.name));

let requests = 0;
const SKILL = {
  id: 1,
  name: 'Tone',
  description: '',
  instructions: 'Be brief.',
  icon: 'sparkles',
  level: 'personal',
  visibility: 'public',
  workspace_id: null,
  is_active: true,
  created_at: '2026-11-22T10:00:00Z',
};
const server: Server = createServer((_, response) => {
  requests++;
  response.writeHead(200, { 'content-type': 'application/json' });
  response.end(
    JSON.stringify({ status: 'success', message: 'OK', message_code: 'api_v1_ok', data: SKILL, meta: {} }),
  );
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
// A port that refuses: listen, note it, close.
const refused = createServer();
await new Promise<void>((resolve) => refused.listen(0, '127.0.0.1', resolve));
const refusedUrl = `http://127.0.0.1:${(refused.address() as AddressInfo).port}`;
await new Promise((resolve) => refused.close(resolve));

/** A hook that takes 10 s; its timer does not keep the process alive. */
const tenSeconds = () => new Promise<void>((resolve) => setTimeout(resolve, 10_000).unref());

/** Runs `call`, and says how it ended, after how long, with how many requests. */
async function measure(edge: string, call: () => unknown): Promise<void> {
  const before = requests;
  const started = performance.now();
  let outcome: string;
  try {
    const value = call();
    if (value && typeof (value as PromiseLike<unknown>).then === 'function') await value;
    else if (value && Symbol.asyncIterator in (value as object))
      await (value as AsyncIterable<unknown>)[Symbol.asyncIterator]().next();
    outcome = 'resolved';
  } catch (error) {
    const { name, message } = error as Error;
    outcome = `${name}: ${message}`;
  }
  const ms = Math.round(performance.now() - started);
  console.log(`| ${edge} | ${outcome} | ${ms} ms | ${requests - before} |`);
}

const client = (options: ClientOptions = {}) => new Client({ baseUrl, token: 't', ...options });
const stream = (options: StreamOptions) =>
  client().turns.stream('3f2b1c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d', { content: 'x' }, options);

console.log('| edge | outcome | after | requests |');
console.log('|---|---|---|---|');
await measure('new Client({ timeout: Infinity })', () => client({ timeout: Number.POSITIVE_INFINITY }));
await measure('skills.get(1, { timeout: 2 ** 31 })', () => client().skills.get(1, { timeout: 2 ** 31 }));
await measure('new Client({ maxRetries: NaN })', () => client({ maxRetries: Number.NaN }));
await measure('skills.get(1, { maxRetries: NaN }) to a refused port', () =>
  new Client({ baseUrl: refusedUrl, token: 't' }).skills.get(1, { maxRetries: Number.NaN }),
);
await measure('skills.get(1, { maxRetries: 1.5 })', () => client().skills.get(1, { maxRetries: 1.5 }));
await measure('turns.stream(..., { idleTimeout: Infinity }), first read', () =>
  stream({ idleTimeout: Number.POSITIVE_INFINITY }),
);
await measure('turns.stream(..., { maxResumes: -1 }), first read', () => stream({ maxResumes: -1 }));
await measure(
  "new Client({ baseUrl: 'http://user:pw@host' })",
  () => new Client({ baseUrl: 'http://user:pw@host', token: 't' }),
);
await measure('a 10 s beforeRequest hook, timeout 300, maxRetries 0', () =>
  client({ maxRetries: 0 }).skills.get(1, { timeout: 300, hooks: { beforeRequest: [tenSeconds] } }),
);
await measure('a 10 s beforeRequest hook, timeout 300, default retries (a read: 3 attempts)', () =>
  client().skills.get(1, { timeout: 300, hooks: { beforeRequest: [tenSeconds] } }),
);
await measure('a 10 s afterResponse hook, timeout 300, maxRetries 0', () =>
  client({ maxRetries: 0 }).skills.get(1, { timeout: 300, hooks: { afterResponse: [tenSeconds] } }),
);
await measure('a 10 s beforeRequest hook, the signal aborted after 50 ms', () =>
  client().skills.get(1, { signal: AbortSignal.timeout(50), hooks: { beforeRequest: [tenSeconds] } }),
);
await measure('a beforeRequest hook that throws (default retries)', () =>
  client().skills.get(1, {
    hooks: {
      beforeRequest: [
        () => {
          throw new Error('no trace id');
        },
      ],
    },
  }),
);
await measure('an afterResponse hook that returns 42', () =>
  client().skills.get(1, { hooks: { afterResponse: [() => 42 as never] } }),
);
await measure('an onRetry that throws, on a refused port', () =>
  new Client({
    baseUrl: refusedUrl,
    token: 't',
    retryDelay: { min: 1, max: 5 },
    onRetry: () => {
      throw new Error('metrics down');
    },
  }).skills.get(1),
);
console.log(`\nTimeoutOverflowWarning: ${warnings.filter((w) => w === 'TimeoutOverflowWarning').length}`);
server.close();
