import { describe, expect, it, vi } from 'vitest';
import { Client, ConnectionError, ConvoError } from '../../src/index.js';
import { fakeFetch, ok, skill } from '../support/fake-fetch.js';

// ky is loaded by the first request (http/transport.ts); here it cannot be.
const loads = vi.hoisted(() => ({ count: 0 }));
vi.mock('ky', () => {
  loads.count++;
  throw new Error('ky is broken');
});

describe('the SDK failing to load ky', () => {
  it('is a plain ConvoError that names ky, with the cause, neither a connection failure nor retried', async () => {
    const { fetch, requests } = fakeFetch(ok(skill()));
    const beforeRetry = vi.fn();
    const client = new Client({
      baseUrl: 'https://api.test',
      token: 'secret-token',
      fetch,
      hooks: { beforeRetry: [beforeRetry] },
    });
    const error = await client.skills.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConvoError);
    expect(error).not.toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({
      name: 'ConvoError',
      message: expect.stringMatching(/^could not load ky: /),
    });
    expect((error as Error).cause).toBeInstanceOf(Error);
    expect(beforeRetry).not.toHaveBeenCalled();
    expect(requests).toHaveLength(0);
    expect(loads.count).toBe(1);
  });
});
