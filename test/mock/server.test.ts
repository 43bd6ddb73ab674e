import { Agent, request as httpRequest } from 'node:http';
import { describe, expect, it } from 'vitest';
import { startMockServer } from '../../src/mock/index.js';
import { nodeServerAt, useMockServer, withMockServer } from '../support/mock-server.js';
import { turnsEnded } from '../support/mock-targets.js';
import { parseReply, postStream } from './helpers.js';
import { EventReader } from './sse.js';

describe('8 served over HTTP by startMockServer', () => {
  const server = useMockServer({ tokens: [{ token: 'a', scopes: ['skills:read'] }] });

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

  it('openResponses() counts a stream left open, and 0 once its reader aborted', async () => {
    await withMockServer(async (served) => {
      const headers = { authorization: 'Bearer mock-token' };
      await (await fetch(`${served.url}/api/v1/skills`, { headers })).text(); // an idle keep-alive
      expect(served.openResponses()).toBe(0);
      const reader = new AbortController();
      await postStream(served.url, '[[mock:hang]]', { signal: reader.signal });
      expect(served.openResponses()).toBe(1);
      reader.abort();
      await expect.poll(() => served.openResponses()).toBe(0);
    });
  });

  it('a taken port rejects', async () => {
    const port = Number(new URL(server.url).port);
    await expect(startMockServer({ port })).rejects.toThrow(/EADDRINUSE/);
  });

  it('close() returns promptly with a keep-alive connection open, and is idempotent', async () => {
    const other = await startMockServer({ port: 0 });
    // A keep-alive request leaves an idle socket behind, which server.close() alone would wait for: a
    // minute here, so that "promptly" needs no tight bound on a busy machine.
    nodeServerAt(other.url).keepAliveTimeout = 60_000;
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
    expect(Date.now() - started).toBeLessThan(10_000);
    agent.destroy();
    await expect(fetch(`${other.url}/api/v1/skills`)).rejects.toThrow();
  });
});

describe('faults over HTTP', () => {
  it('a dropped connection destroys the socket: fetch rejects, the turn is stored', async () => {
    await withMockServer(async (server) => {
      server.mock.faults.add({ route: 'send', drop: 'before-response' });
      const attempt = fetch(`${server.url}/api/v1/chats/${crypto.randomUUID()}/messages`, {
        method: 'POST',
        headers: {
          authorization: 'Bearer mock-token',
          'content-type': 'application/json',
          'idempotency-key': 'k',
        },
        body: JSON.stringify({ content: 'hi', permission_mode: 'auto' }),
      });
      await expect(attempt).rejects.toThrow(TypeError);
      expect(server.mock.runs('k')).toBe(1);
    });
  });
});

describe('streams over HTTP', () => {
  it('4.4 events arrive one by one over a real socket; eventsource-parser reads them', async () => {
    await withMockServer(async (server) => {
      const response = await postStream(server.url, 'over http');
      expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const events = await new EventReader(response.body!).rest();
      expect(events.map((e) => e.event).at(-1)).toBe('message.completed');
      expect(events.at(-1)?.data.content).toBe('Mock answer: over http');
    });
  });

  it('4.4 a client that disconnects mid-stream does not stop the turn', async () => {
    await withMockServer(async (server) => {
      const controller = new AbortController();
      const response = await postStream(server.url, '[[mock:slow ms=20]] [[mock:words n=5]]', {
        signal: controller.signal,
      });
      const reader = new EventReader(response.body!);
      expect((await reader.next())?.event).toBe('message.start');
      controller.abort();
      // Until the turn ends (about 100 ms of waits; more on a busy machine).
      await turnsEnded(server.mock);
      expect(server.mock.store.turns()[0]).toMatchObject({
        status: 'completed',
        content: 'word1 word2 word3 word4 word5',
      });
    });
  });
});

describe('stream faults over HTTP', () => {
  it('cutAfterEvents: the headers and N events arrive, then the connection resets mid-body', async () => {
    await withMockServer(async (server) => {
      server.mock.faults.add({ route: 'stream', cutAfterEvents: 3 });
      const response = await postStream(server.url, '[[mock:words n=12]]');
      expect(response.status).toBe(200);
      const reader = new EventReader(response.body!);
      const seen = [await reader.next(), await reader.next(), await reader.next()].map((e) => e?.event);
      expect(seen).toEqual(['message.start', 'message.step', 'message.delta']);
      await expect(reader.next()).rejects.toThrow();
      await turnsEnded(server.mock);
      expect(server.mock.store.turns()[0]?.status).toBe('completed');
    });
  });
});
