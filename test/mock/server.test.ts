import { Agent, request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/mock/index.js';
import { parseReply } from './helpers.js';

describe('8 served over HTTP by startMockServer', () => {
  let server: MockServer;
  beforeAll(async () => {
    server = await startMockServer({ port: 0, tokens: [{ token: 'a', scopes: ['skills:read'] }] });
  });
  afterAll(() => server.close());

  it('port 0 picks a free port; url is http://127.0.0.1:PORT with the real port', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.url).not.toMatch(/:0$/);
  });

  it('answers the API with the configured credentials', async () => {
    const ok = await fetch(`${server.url}/api/v1/skills`, { headers: { authorization: 'Bearer a' } });
    expect(ok.status).toBe(200);
    const denied = await parseReply(
      await fetch(`${server.url}/api/v1/skills`, {
        method: 'POST',
        headers: { authorization: 'Bearer a', 'content-type': 'application/json' },
        body: '{}',
      }),
    );
    expect([denied.status, denied.body.data]).toEqual([403, { required_scopes: ['skills:write'] }]);
  });

  it('answers a CORS preflight', async () => {
    const response = await fetch(`${server.url}/api/v1/skills`, {
      method: 'OPTIONS',
      headers: { origin: 'http://page.test', 'access-control-request-method': 'GET' },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('does not replace the global Request and Response', () => {
    expect(globalThis.Request.name).toBe('Request');
    expect(new Response('x')).toBeInstanceOf(Response);
  });

  it('a taken port rejects', async () => {
    const port = Number(new URL(server.url).port);
    await expect(startMockServer({ port })).rejects.toThrow(/EADDRINUSE/);
  });

  it('close() returns promptly with a keep-alive connection open, and is idempotent', async () => {
    const other = await startMockServer({ port: 0 });
    // A keep-alive request leaves an idle socket behind, which server.close() alone would wait for.
    const agent = new Agent({ keepAlive: true });
    await new Promise<void>((resolve, reject) => {
      const req = httpRequest(`${other.url}/api/v1/skills`, {
        headers: { authorization: 'Bearer mock-token' },
        agent,
      });
      req.on('response', (response) => {
        response.resume();
        response.on('end', resolve);
      });
      req.on('error', reject);
      req.end();
    });
    const started = Date.now();
    await Promise.all([other.close(), other.close()]);
    expect(Date.now() - started).toBeLessThan(1000);
    agent.destroy();
    await expect(fetch(`${other.url}/api/v1/skills`)).rejects.toThrow();
  });
});
