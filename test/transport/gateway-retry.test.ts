import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { Client, type ClientOptions, InternalServerError } from '../../src/index.js';
import { apiError } from '../support/api-error.js';
import { skill } from '../support/fake-fetch.js';
import { failure, json, type Script, scriptedServer, success } from '../support/scripted-server.js';
import { CHAT, finished, sseText, turnEvents } from '../support/sse.js';

/**
 * A proxy's or load balancer's bare 408, 502, 503 and 504 (no contract error body) through real HTTP on
 * loopback: repeated where arriving twice is harmless, never for a create (docs/client.md, "What is retried").
 */

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

/** Headers of every request, in order, beside what the scripted server records. */
async function serve(script: Script, options: Partial<ClientOptions> = {}) {
  const headers: IncomingHttpHeaders[] = [];
  const server = await scriptedServer((request, response, n) => {
    headers.push(request.headers);
    script(request, response, n);
  });
  close = server.close;
  const client = new Client({
    baseUrl: server.url,
    token: 'loopback-token',
    retryDelay: { min: 1, max: 5 },
    ...options,
  });
  return { client, seen: server.seen, headers };
}

/** A bare gateway answer: a status, an optional body and its type, no contract envelope. */
function bare(response: ServerResponse, status: number, body = '', headers: Record<string, string> = {}) {
  response.writeHead(status, body ? { 'content-type': 'text/html', ...headers } : headers).end(body);
}

const NGINX_503 =
  '<html>\r\n<head><title>503 Service Temporarily Unavailable</title></head>\r\n<body></body>\r\n</html>\r\n';

const page = (items: unknown[]) => ({
  ...success(items),
  meta: { request_id: 'r-1', page: 1, size: 50, total: items.length },
});

const TURN = finished('Hello.', { status: 'completed', usage: null });

describe("7: a gateway's bare failure over loopback HTTP", () => {
  it('7: a GET of the skills list answered a bare 503 with Retry-After: 0, then 200, succeeds', async () => {
    const { client, seen } = await serve((_, response, n) =>
      n === 1 ? bare(response, 503, '', { 'retry-after': '0' }) : json(response, 200, page([skill()])),
    );
    const list = await client.skills.list();
    expect(list.items.map((s) => s.id)).toEqual([1]);
    expect(seen.map((s) => `${s.method} ${s.path}`)).toEqual([
      'GET /api/v1/skills?page=1',
      'GET /api/v1/skills?page=1',
    ]);
  });

  it("7: nginx's HTML 503 page on a read is retried; Retry-After: 1 is waited", async () => {
    const { client, seen } = await serve((_, response, n) =>
      n === 1
        ? bare(response, 503, NGINX_503, { 'retry-after': '1' })
        : json(response, 200, success(skill())),
    );
    expect((await client.skills.get(1)).id).toBe(1);
    expect(seen).toHaveLength(2);
    expect(seen[1]!.at - seen[0]!.at).toBeGreaterThanOrEqual(990);
  });

  it('7: a read answered a bare 502 every time fails after maxRetries with an InternalServerError http_502', async () => {
    const { client, seen } = await serve((_, response) => bare(response, 502));
    const error = await apiError(client.skills.get(1));
    expect(error).toBeInstanceOf(InternalServerError);
    expect([error.status, error.code]).toEqual([502, 'http_502']);
    expect(seen).toHaveLength(3); // the first attempt and maxRetries (2)
  });

  it('7: a read answered a bare 408 is retried', async () => {
    const { client, seen } = await serve((_, response, n) =>
      n === 1 ? bare(response, 408) : json(response, 200, success(skill())),
    );
    expect((await client.skills.get(1)).id).toBe(1);
    expect(seen).toHaveLength(2);
  });

  it('7: a chat create answered a bare 502 fails without a resend', async () => {
    const { client, seen } = await serve((_, response) => bare(response, 502, '', { 'retry-after': '0' }));
    const error = await apiError(client.chats.create({ name: 'Plans' }));
    expect([error.status, error.code]).toEqual([502, 'http_502']);
    expect(seen.map((s) => `${s.method} ${s.path}`)).toEqual(['POST /api/v1/chats']);
  });

  it('4.3, 7.3: a synchronous turn send answered a bare 504, then its answer, is resent with the same Idempotency-Key', async () => {
    const { client, seen, headers } = await serve((_, response, n) =>
      n === 1 ? bare(response, 504, NGINX_503.replaceAll('503', '504')) : json(response, 200, success(TURN)),
    );
    const sent = await client.turns.send(CHAT, { content: 'Hi' });
    expect(sent.content).toBe('Hello.');
    expect(seen).toHaveLength(2);
    const keys = headers.map((h) => h['idempotency-key']);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys).toEqual([keys[0], keys[0]]);
    expect(sent.idempotencyKey).toBe(keys[0]);
  });

  it("7.3: a synchronous turn's 502 with the contract body is its stored outcome: not resent", async () => {
    const { client, seen } = await serve((_, response) =>
      json(
        response,
        502,
        { ...failure('upstream_error'), data: { chat_id: CHAT, message_id: 1 } },
        { 'retry-after': '0' },
      ),
    );
    const error = await apiError(client.turns.send(CHAT, { content: 'Hi' }));
    expect(error.code).toBe('upstream_error');
    expect(seen).toHaveLength(1);
  });

  it('4.4, 7: a stream open answered a bare 502 is re-sent with the same key and streams the turn', async () => {
    const { client, seen, headers } = await serve((_, response, n) => {
      if (n === 1) return bare(response, 502);
      response
        .writeHead(200, { 'content-type': 'text/event-stream' })
        .end(sseText(turnEvents(['Hel', 'lo.'])));
    });
    const stream = client.turns.stream(CHAT, { content: 'Hi' });
    expect(await stream.finalText()).toBe('Hello.');
    expect(seen).toHaveLength(2);
    expect(headers[1]!['idempotency-key']).toBe(headers[0]!['idempotency-key']);
  });

  it('4.6, 7: a cancel answered a bare 503 is repeated (cancel is idempotent)', async () => {
    const { client, seen } = await serve((_, response, n) =>
      n === 1 ? bare(response, 503) : json(response, 200, success({ chat_id: CHAT, cancelled: true })),
    );
    expect(await client.turns.cancel(CHAT)).toEqual({ chat_id: CHAT, cancelled: true });
    expect(seen).toHaveLength(2);
  });

  it('7: maxRetries: 0 sends a read answered a bare 503 once', async () => {
    const { client, seen } = await serve((_, response) => bare(response, 503, '', { 'retry-after': '0' }), {
      maxRetries: 0,
    });
    const error = await apiError(client.skills.list());
    expect(error.status).toBe(503);
    expect(seen).toHaveLength(1);
    const { client: perCall, seen: once } = await serve((_, response) => bare(response, 503));
    await apiError(perCall.skills.get(1, { maxRetries: 0 }));
    expect(once).toHaveLength(1);
  });

  it('7: a bare 503 asking for a Retry-After above maxRetryAfter ends the call at once, retryAfterMs on it', async () => {
    const { client, seen } = await serve((_, response) => bare(response, 503, '', { 'retry-after': '30' }), {
      maxRetryAfter: 20_000,
    });
    const started = performance.now();
    const error = await apiError(client.skills.get(1));
    // At once: a wait would take 20 s or more; a busy machine's loopback round trip takes far less than 10.
    expect(performance.now() - started).toBeLessThan(10_000);
    expect([error.status, error.retryAfterMs]).toEqual([503, 30_000]);
    expect(seen).toHaveLength(1);
  });
});
