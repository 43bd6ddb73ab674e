import { once } from 'node:events';
import { createGzip } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import {
  Client,
  ConnectionError,
  RedirectError,
  ResponseTooLargeError,
  ValidationError,
} from '../../src/index.js';
import { skill } from '../support/fake-fetch.js';
import { type Loopback, loopback, sendOk } from '../support/loopback.js';

/**
 * The transport's edges, each through real HTTP on loopback: redirects are never followed, response bodies
 * are capped while read (decoded bytes), header values are checked before anything is sent.
 */

const CHAT = '3f2b1c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';
const TOKEN = 'secret-token-4711';
const servers: Loopback[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serve(handle: Parameters<typeof loopback>[0]): Promise<Loopback> {
  const server = await loopback(handle);
  servers.push(server);
  return server;
}

const client = (baseUrl: string, options: ConstructorParameters<typeof Client>[0] = {}) =>
  new Client({ baseUrl, token: TOKEN, retryDelay: { min: 1, max: 2 }, ...options });

describe('redirects are never followed', () => {
  for (const status of [301, 302, 303, 307, 308]) {
    it(`5 a ${status} to another origin ends the call with RedirectError; the other origin receives nothing`, async () => {
      const elsewhere = await serve((_request, response) => sendOk(response, skill()));
      const service = await serve((_request, response) => {
        response.writeHead(status, { location: `${elsewhere.url}/api/v1/skills` });
        response.end();
      });
      const error = await client(service.url)
        .skills.create({ name: 'n', instructions: 'i' })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RedirectError);
      expect(error).toMatchObject({ status, location: `${elsewhere.url}/api/v1/skills` });
      expect((error as Error).message).toContain(String(status));
      expect(elsewhere.requests).toHaveLength(0);
      expect(service.requests).toHaveLength(1); // not retried
    });
  }

  it('4.4 a redirect of the streamed turn ends it with RedirectError before any prompt leaves for the other origin', async () => {
    const elsewhere = await serve((_request, response) => response.end());
    const service = await serve((_request, response) => {
      response.writeHead(307, { location: `${elsewhere.url}/steal` });
      response.end();
    });
    const stream = client(service.url).turns.stream(CHAT, { content: 'a private prompt' });
    await expect(stream.finalText()).rejects.toBeInstanceOf(RedirectError);
    expect(elsewhere.requests).toHaveLength(0);
  });
});

/** A server that answers a JSON body of `size` bytes in 64 KiB chunks (no Content-Length), or forever. */
function bigBody(size: number) {
  return serve((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    const chunk = Buffer.alloc(65_536, 0x20);
    let sent = 0;
    const write = () => {
      while (sent < size) {
        sent += chunk.length;
        if (!response.write(chunk)) return response.once('drain', write);
      }
      response.end();
    };
    response.on('close', () => {
      sent = size;
    });
    write();
  });
}

/** `mb` MiB of spaces, gzipped a MiB at a time (so the test itself never holds the inflated bytes). */
async function gzipOf(mb: number): Promise<Buffer> {
  const gzip = createGzip({ level: 9 });
  const parts: Buffer[] = [];
  gzip.on('data', (part: Buffer) => parts.push(part));
  const chunk = Buffer.alloc(1024 * 1024, 0x20);
  for (let i = 0; i < mb; i++) if (!gzip.write(chunk)) await once(gzip, 'drain');
  gzip.end();
  await once(gzip, 'end');
  return Buffer.concat(parts);
}

/**
 * A fetch that counts the body bytes (decoded) its caller reads: all a client can hold of a body is what it
 * read, so this bounds its memory, counted for this call alone (unlike the process's RSS, which the server
 * in this same process and the garbage of other tests change).
 */
function counting(): { fetch: typeof fetch; read(): number } {
  let read = 0;
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const response = await globalThis.fetch(input, init);
    if (!response.body) return response;
    const counted = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          read += chunk.byteLength;
          controller.enqueue(chunk);
        },
      }),
    );
    return new Response(counted, response);
  };
  return { fetch, read: () => read };
}

/** What a capped read may take past its cap: the chunk that crossed it and one pulled ahead. */
const CHUNK_SLACK = 1024 * 1024;

describe('response bodies are capped while read', () => {
  it('8 a body past maxResponseBytes stops with ResponseTooLargeError, not retried, memory bounded', async () => {
    const server = await bigBody(400 * 1024 * 1024);
    const { fetch, read } = counting();
    const error = await client(server.url, { maxResponseBytes: 4 * 1024 * 1024, fetch })
      .skills.get(1)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error).toMatchObject({ limit: 4 * 1024 * 1024 });
    expect(server.requests).toHaveLength(1); // a GET, yet not repeated
    // Read no further than the cap: 4 MiB of the 400, not the body.
    expect(read()).toBeGreaterThan(4 * 1024 * 1024);
    expect(read()).toBeLessThanOrEqual(4 * 1024 * 1024 + CHUNK_SLACK);
  });

  it('8 a per-request maxResponseBytes overrides the client one', async () => {
    const server = await serve((_request, response) =>
      sendOk(response, skill({ instructions: 'x'.repeat(5_000) })),
    );
    await expect(client(server.url).skills.get(1, { maxResponseBytes: 1_000 })).rejects.toBeInstanceOf(
      ResponseTooLargeError,
    );
    await expect(
      client(server.url, { maxResponseBytes: 1_000 }).skills.get(1, { maxResponseBytes: 10_000 }),
    ).resolves.toMatchObject({ id: 1 });
  });

  it('8 a gzip bomb counts by its decoded bytes: 256 MB inflated from about 250 KB stops at the default cap', async () => {
    const bomb = await gzipOf(256);
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const server = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      response.end(bomb);
    });
    const { fetch, read } = counting();
    const error = await client(server.url, { fetch })
      .skills.get(1)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error).toMatchObject({ limit: 32 * 1024 * 1024 });
    // Decoded bytes read: up to the 32 MiB cap, not the 256 MB the bomb inflates to.
    expect(read()).toBeGreaterThan(32 * 1024 * 1024);
    expect(read()).toBeLessThanOrEqual(32 * 1024 * 1024 + CHUNK_SLACK);
  });

  it('2.2, 8 the default cap holds the largest legal page: 200 skills of 12,000 JSON-escaped characters', async () => {
    const worst = '\u0001'.repeat(12_000); // 6 bytes each once escaped: \u0001
    const items = Array.from({ length: 200 }, (_, i) =>
      skill({
        id: i + 1,
        name: '\u0002'.repeat(255),
        description: '\u0003'.repeat(500),
        instructions: worst,
      }),
    );
    const text = JSON.stringify({
      status: 'success',
      message: 'OK',
      message_code: 'api_v1_ok',
      data: items,
      meta: { request_id: 'r', page: 1, size: 200, total: 200 },
    });
    expect(text.length).toBeGreaterThan(15_000_000);
    const server = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(text);
    });
    const page = await client(server.url).skills.list({ size: 200 });
    expect(page.items).toHaveLength(200);
    expect(page.items[199]?.instructions).toBe(worst);
  });
});

describe('header values are checked before anything is sent', () => {
  const bad: [string, string][] = [
    ['LF', 'a\nb'],
    ['CR', 'a\rb'],
    ['NUL', 'a\0b'],
    ['a character outside Latin-1', 'a€b'],
  ];

  for (const [what, value] of bad) {
    it(`5 a token holding ${what} is refused by the Client constructor, without showing the token`, () => {
      const token = `${TOKEN}${value}`;
      let error: unknown;
      try {
        new Client({ baseUrl: 'http://127.0.0.1:9', token });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ValidationError);
      expect(error).toMatchObject({ field: 'token' });
      expect(String(error)).not.toContain(TOKEN);
      expect(JSON.stringify(error)).not.toContain(TOKEN);
    });

    it(`5 client headers, per-request headers and idempotency keys holding ${what} are refused, nothing sent`, async () => {
      const server = await serve((_request, response) => sendOk(response, skill()));
      expect(() => client(server.url, { headers: { 'x-tenant': value } })).toThrow(ValidationError);
      const perRequest = await client(server.url)
        .skills.get(1, { headers: { 'x-trace': value } })
        .catch((e: unknown) => e);
      expect(perRequest).toBeInstanceOf(ValidationError);
      expect(perRequest).toMatchObject({ field: 'headers.x-trace' });
      const keyed = await client(server.url)
        .turns.send(CHAT, { content: 'x' }, { idempotencyKey: `k${value}` })
        .catch((e: unknown) => e);
      expect(keyed).toBeInstanceOf(ValidationError);
      expect(keyed).toMatchObject({ field: 'idempotencyKey' });
      const streamed = client(server.url).turns.stream(
        CHAT,
        { content: 'x' },
        { idempotencyKey: `k${value}` },
      );
      await expect(streamed.finalText()).rejects.toBeInstanceOf(ValidationError);
      expect(server.requests).toHaveLength(0);
    });
  }

  it('5 Latin-1 values and tabs pass: é and a tab reach the server as sent', async () => {
    const server = await serve((_request, response) => sendOk(response, skill()));
    await client(server.url).skills.get(1, { headers: { 'x-note': 'caf\u00e9\tok' } });
    expect(Buffer.from(String(server.requests[0]?.headers['x-note']), 'latin1').toString('latin1')).toBe(
      'caf\u00e9\tok',
    );
  });

  it('5 a header name that is not an HTTP token is refused before sending', async () => {
    const server = await serve((_request, response) => sendOk(response, skill()));
    await expect(client(server.url).skills.get(1, { headers: { 'bad name': 'v' } })).rejects.toBeInstanceOf(
      ValidationError,
    );
    expect(server.requests).toHaveLength(0);
  });
});

describe('a connection refused is a ConnectionError', () => {
  it('7 a closed port rejects with ConnectionError naming the low-level cause', async () => {
    const server = await serve(() => {});
    const url = server.url;
    await server.close();
    servers.pop();
    const error = await client(url, { maxRetries: 0 })
      .skills.get(1)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toMatch(/ECONNREFUSED/);
  });
});
