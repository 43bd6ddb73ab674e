import { describe, expect, it } from 'vitest';
import { createMock, MAX_BODY_BYTES } from '../../src/mock/index.js';
import { call, errorDataOf, outcome, parseReply } from './helpers.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

describe('2.1 and 7 bodies', () => {
  const mock = createMock();

  it('2.1 a success is { status: success, message, message_code: api_v1_ok, data, meta.request_id }', async () => {
    const reply = await call(mock, 'GET', '/api/v1/skills');
    expect(reply.body).toMatchObject({ status: 'success', message_code: 'api_v1_ok', data: [] });
    expect(typeof reply.body.message).toBe('string');
    expect(reply.body.meta.request_id).toMatch(UUID);
  });

  it('2.1 every answer is JSON, and each request gets its own request_id', async () => {
    const first = await call(mock, 'GET', '/api/v1/skills');
    const second = await call(mock, 'GET', '/api/v1/skills/1');
    expect(first.headers.get('content-type')).toMatch(/^application\/json/);
    expect(second.headers.get('content-type')).toMatch(/^application\/json/);
    expect(first.body.meta.request_id).not.toBe(second.body.meta.request_id);
  });

  it('7 an error is { status: error, message, message_code, data, meta.request_id }', async () => {
    const reply = await call(mock, 'GET', '/api/v1/skills/1');
    expect(reply.body).toMatchObject({ status: 'error', message_code: 'api_v1_not_found', data: null });
    expect(typeof reply.body.message).toBe('string');
    expect(reply.body.meta.request_id).toMatch(UUID);
    expect(reply.body.meta).not.toHaveProperty('error_details');
  });

  it('7.1 an unknown route -> 404 api_v1_not_found envelope', async () => {
    for (const [method, path] of [
      ['GET', '/api/v1/nothing'],
      ['PUT', '/api/v1/skills'],
      ['GET', '/api/v1/skills/abc'],
      ['GET', '/'],
    ] as const) {
      const reply = await call(mock, method, path);
      expect(outcome(reply), `${method} ${path}`).toEqual([404, 'api_v1_not_found']);
      errorDataOf(reply);
    }
  });

  it('invalid JSON -> 400 api_v1_invalid_json', async () => {
    const reply = await call(mock, 'POST', '/api/v1/skills', { body: '{"name": ' });
    expect(outcome(reply)).toEqual([400, 'api_v1_invalid_json']);
  });

  it('bytes that are not UTF-8 -> 400 api_v1_invalid_json', async () => {
    const response = await mock.handle(
      new Request(`${mock.url}/api/v1/skills`, {
        method: 'POST',
        headers: { authorization: 'Bearer mock-token' },
        body: new Uint8Array([0x7b, 0xff, 0x7d]),
      }),
    );
    expect(outcome(await parseReply(response))).toEqual([400, 'api_v1_invalid_json']);
  });

  it('a body over MAX_BODY_BYTES (8 MiB) -> 413 api_v1_payload_too_large, with or without Content-Length', async () => {
    const big = JSON.stringify({ name: 'n', instructions: 'x'.repeat(MAX_BODY_BYTES) });
    expect(outcome(await call(mock, 'POST', '/api/v1/skills', { body: big }))).toEqual([
      413,
      'api_v1_payload_too_large',
    ]);
    // A streamed body carries no Content-Length: the cap is counted while reading.
    const bytes = new TextEncoder().encode(big);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 65_536) controller.enqueue(bytes.slice(i, i + 65_536));
        controller.close();
      },
    });
    const response = await mock.handle(
      new Request(`${mock.url}/api/v1/skills`, {
        method: 'POST',
        headers: { authorization: 'Bearer mock-token' },
        body: stream,
        duplex: 'half',
      } as RequestInit),
    );
    expect(outcome(await parseReply(response))).toEqual([413, 'api_v1_payload_too_large']);
  });
});

describe('CORS', () => {
  const mock = createMock();

  it('conventions: a preflight from any origin is allowed, with whatever request headers it asks for', async () => {
    const response = await mock.handle(
      new Request(`${mock.url}/api/v1/skills`, {
        method: 'OPTIONS',
        headers: {
          origin: 'http://page.test',
          'access-control-request-method': 'PATCH',
          'access-control-request-headers': 'authorization,content-type,idempotency-key,accept,x-app',
        },
      }),
    );
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    const headers = response.headers.get('access-control-allow-headers')?.toLowerCase() ?? '';
    for (const name of ['authorization', 'content-type', 'idempotency-key', 'accept', 'x-app']) {
      expect(headers).toContain(name);
    }
    expect(response.headers.get('access-control-allow-methods')).toContain('PATCH');
    expect(response.headers.get('access-control-allow-credentials')).toBeNull();
  });

  it('a preflight needs no token, and answers errors with CORS headers too', async () => {
    const reply = await call(mock, 'GET', '/api/v1/skills', {
      token: null,
      headers: { origin: 'http://page.test' },
    });
    expect(reply.status).toBe(401);
    expect(reply.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('a success carries the CORS headers', async () => {
    const reply = await call(mock, 'GET', '/api/v1/skills', { headers: { origin: 'http://page.test' } });
    expect(reply.headers.get('access-control-allow-origin')).toBe('*');
  });
});
