import { describe, expect, it } from 'vitest';
import { createMock } from '../../src/mock/index.js';
import { parseReply } from './helpers.js';

const auth = { authorization: 'Bearer mock-token' };

describe('8 served by fetch injection', () => {
  it('url is http://convo.mock and fetch answers like handle', async () => {
    const mock = createMock();
    expect(mock.url).toBe('http://convo.mock');
    const reply = await parseReply(await mock.fetch(`${mock.url}/api/v1/skills`, { headers: auth }));
    expect(reply.status).toBe(200);
  });

  it('fetch(request, init): init applies over the request', async () => {
    const mock = createMock();
    const request = new Request(`${mock.url}/api/v1/skills`, { method: 'POST', headers: auth });
    const body = JSON.stringify({ name: 'n', instructions: 'i' });
    const reply = await parseReply(await mock.fetch(request, { method: 'POST', headers: auth, body }));
    expect(reply.status).toBe(201);
    expect(mock.store.skills().length).toBe(1);
  });

  it('a URL object, any origin, and a relative path (resolved against url) all reach the mock', async () => {
    const mock = createMock();
    for (const input of [
      new URL('/api/v1/skills', mock.url),
      'https://api.example.test/api/v1/skills',
      '/api/v1/skills',
    ]) {
      expect((await mock.fetch(input, { headers: auth })).status, String(input)).toBe(200);
    }
  });

  it('a bad input rejects the promise instead of throwing', async () => {
    const mock = createMock();
    const result = mock.fetch('http://convo.mock/', { method: 'GET', body: 'x' });
    await expect(result).rejects.toThrow(TypeError);
  });

  it('an aborted signal rejects like fetch, with its reason', async () => {
    const mock = createMock();
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    await expect(mock.fetch('/api/v1/skills', { headers: auth, signal: controller.signal })).rejects.toThrow(
      'stop',
    );
    const request = new Request(`${mock.url}/api/v1/skills`, { headers: auth, signal: controller.signal });
    await expect(mock.fetch(request)).rejects.toThrow('stop');
  });

  it('two mocks share nothing', async () => {
    const a = createMock();
    const b = createMock();
    await a.fetch('/api/v1/skills', {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ name: 'n', instructions: 'i' }),
    });
    expect(a.store.skills().length).toBe(1);
    expect(b.store.skills().length).toBe(0);
  });

  it('pingMs and interactionTtlMs are kept in the settings; contract values by default', () => {
    expect(createMock().store.settings).toEqual({ pingMs: 15_000, interactionTtlMs: 110_000 });
    expect(createMock({ pingMs: 50, interactionTtlMs: 100 }).store.settings).toEqual({
      pingMs: 50,
      interactionTtlMs: 100,
    });
  });
});
