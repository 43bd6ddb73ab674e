import { describe, expect, it } from 'vitest';
import { Client, ValidationError } from '../../src/index.js';
import { fakeFetch, ok } from '../support/fake-fetch.js';

/** Runs `body` with the service's settings removed from the environment, then puts them back. */
async function withoutEnv<T>(body: () => Promise<T>): Promise<T> {
  const saved = { base: process.env.CONVO_BASE_URL, token: process.env.CONVO_API_TOKEN };
  delete process.env.CONVO_BASE_URL;
  delete process.env.CONVO_API_TOKEN;
  try {
    return await body();
  } finally {
    if (saved.base !== undefined) process.env.CONVO_BASE_URL = saved.base;
    if (saved.token !== undefined) process.env.CONVO_API_TOKEN = saved.token;
  }
}

describe('a client without its settings builds, and its first call names what is missing', () => {
  it('no base URL nor token: constructs; every call fails with a ValidationError naming the base URL first, nothing sent', async () => {
    await withoutEnv(async () => {
      const { fetch, requests } = fakeFetch(ok({}));
      const client = new Client({ fetch });
      expect(client.baseUrl).toBe('');
      expect(JSON.stringify(client)).toBe('{"baseUrl":""}');
      for (const call of [() => client.skills.get(1), () => client.chats.create({})]) {
        const error = await call().catch((e: unknown) => e);
        expect(error).toBeInstanceOf(ValidationError);
        expect((error as ValidationError).field).toBe('baseUrl');
        expect((error as ValidationError).message).toBe('baseUrl: is required (or set CONVO_BASE_URL)');
      }
      const stream = client.turns.stream('0b0e3c1a-5f7e-4c52-9d8e-1f2a3b4c5d6e', { content: 'hi' });
      await expect(stream.finalTurn()).rejects.toBeInstanceOf(ValidationError);
      expect(requests).toHaveLength(0);
    });
  });

  it('only the token missing: the call names the token and CONVO_API_TOKEN', async () => {
    await withoutEnv(async () => {
      const { fetch, requests } = fakeFetch(ok({}));
      const client = new Client({ baseUrl: 'https://a.test', fetch });
      expect(client.baseUrl).toBe('https://a.test');
      const error = await client.skills.get(1).catch((e: unknown) => e);
      expect(error).toMatchObject({ name: 'ValidationError', field: 'token' });
      expect((error as Error).message).toBe('token: is required (or set CONVO_API_TOKEN)');
      expect(requests).toHaveLength(0);
    });
  });

  it('only the base URL missing: the call names baseUrl and CONVO_BASE_URL', async () => {
    await withoutEnv(async () => {
      const client = new Client({ token: 't', fetch: fakeFetch(ok({})).fetch });
      const error = await client.skills.get(1).catch((e: unknown) => e);
      expect((error as Error).message).toBe('baseUrl: is required (or set CONVO_BASE_URL)');
    });
  });

  it('a value present but wrong still fails at construction', async () => {
    await withoutEnv(async () => {
      expect(() => new Client({ baseUrl: 'not a url' })).toThrow(ValidationError);
      expect(() => new Client({ token: 'a\nb' })).toThrow(/token/);
      process.env.CONVO_BASE_URL = 'ftp://env.test';
      expect(() => new Client({ token: 't' })).toThrow(/http or https/);
      delete process.env.CONVO_BASE_URL;
    });
  });

  it('a client given its settings by withOptions calls as usual', async () => {
    await withoutEnv(async () => {
      const { fetch, requests } = fakeFetch(ok({ id: 1 }));
      const bare = new Client({ fetch });
      await bare
        .withOptions({ baseUrl: 'https://a.test', token: 't' })
        .skills.get(1)
        .catch(() => undefined);
      expect(requests[0]?.url).toBe('https://a.test/api/v1/skills/1');
    });
  });
});
