import { describe, expect, it } from 'vitest';
import { parseCommandLine } from '../../src/mock/adapters/command.js';
import { createMock, MAX_BODY_BYTES } from '../../src/mock/index.js';
import { nodeServerAt, withMockServer } from '../support/mock-server.js';

/**
 * The mock's HTTP server is safe to leave running on a developer machine: it listens on loopback unless
 * told otherwise, and it reads at most `MAX_BODY_BYTES` (8 MiB) of a request body (413 `api_v1_payload_too_large`), whether
 * the size is declared or not.
 */

/** A JSON body of exactly `bytes` bytes. */
function bodyOf(bytes: number): string {
  const prefix = '{"content":"';
  const suffix = '"}';
  return prefix + 'a'.repeat(bytes - prefix.length - suffix.length) + suffix;
}

/** `text` as a stream of 64 KiB chunks, so that fetch sends it chunked, without Content-Length. */
function chunked(text: string): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(offset, offset + 65_536));
      offset += 65_536;
    },
  });
}

const headers = {
  authorization: 'Bearer mock-token',
  'content-type': 'application/json',
  'idempotency-key': 'k',
};

describe('5, 8 the mock HTTP server', () => {
  it('binds 127.0.0.1 by default, from the API and from the convo-mock command line', async () => {
    expect(parseCommandLine(['--port', '0'])).toEqual({ help: false, server: { tokens: [], port: 0 } });
    await withMockServer(async (server) => {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(nodeServerAt(server.url).address()).toMatchObject({ address: '127.0.0.1', family: 'IPv4' });
    });
  });

  it('caps request bodies at MAX_BODY_BYTES (8 MiB): 413 whether the size is declared or streamed, and goes on serving', async () => {
    await withMockServer(async (server) => {
      const send = (body: BodyInit, path = `/api/v1/chats/${crypto.randomUUID()}/messages`) =>
        fetch(`${server.url}${path}`, { method: 'POST', headers, body, duplex: 'half' } as RequestInit);
      const declared = await send(bodyOf(MAX_BODY_BYTES + 1));
      expect([declared.status, (await declared.json()).message_code]).toEqual([
        413,
        'api_v1_payload_too_large',
      ]);
      const streamed = await send(chunked(bodyOf(MAX_BODY_BYTES + 1)));
      expect([streamed.status, (await streamed.json()).message_code]).toEqual([
        413,
        'api_v1_payload_too_large',
      ]);
      const huge = await send(chunked(bodyOf(2 * MAX_BODY_BYTES)), '/api/v1/skills');
      expect(huge.status).toBe(413);
      await huge.body?.cancel();
      // Exactly MAX_BODY_BYTES are read (and then refused for what it says: content over 64,000 characters).
      const atLimit = await send(bodyOf(MAX_BODY_BYTES));
      expect([atLimit.status, (await atLimit.json()).message_code]).toEqual([422, 'api_v1_content_too_long']);
      const after = await fetch(`${server.url}/api/v1/skills`, { headers });
      expect(after.status).toBe(200);
      await after.body?.cancel();
      expect(server.mock.store.turns()).toEqual([]);
    });
  });

  it('the in-process mock applies the same cap', async () => {
    const mock = createMock();
    const reply = await mock.fetch(`/api/v1/chats/${crypto.randomUUID()}/messages`, {
      method: 'POST',
      headers,
      body: chunked(bodyOf(MAX_BODY_BYTES + 1)),
      duplex: 'half',
    } as RequestInit);
    expect(reply.status).toBe(413);
  });
});
