import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { Client, ConnectionError } from '../../src/index.js';
import { fail, fakeFetch } from '../support/fake-fetch.js';

const TOKEN = 'tok_live_6f1c2d3e4a5b';

describe('the credential never leaks', () => {
  it('5 not through JSON.stringify or util.inspect of the client', () => {
    const client = new Client({ baseUrl: 'https://a.test', token: TOKEN });
    expect(JSON.stringify(client)).not.toContain(TOKEN);
    expect(inspect(client, { depth: Number.POSITIVE_INFINITY, showHidden: true })).not.toContain(TOKEN);
  });

  it('5 not through an error, its message, its cause, or its inspection', async () => {
    const cases = [fakeFetch(new TypeError('fetch failed')), fakeFetch(fail(401, 'api_v1_unauthorized'))];
    for (const { fetch } of cases) {
      const client = new Client({ baseUrl: 'https://a.test', token: TOKEN, fetch, maxRetries: 0 });
      const error = await client.skills.get(1).catch((e: unknown) => e);
      const seen = [
        String(error),
        JSON.stringify(error),
        inspect(error, { depth: Number.POSITIVE_INFINITY, showHidden: true }),
      ].join('\n');
      expect(seen).not.toContain(TOKEN);
    }
  });

  it('5 not through a timeout error', async () => {
    const { fetch } = fakeFetch(
      (_, signal) =>
        new Promise<Response>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason))),
    );
    const client = new Client({ baseUrl: 'https://a.test', token: TOKEN, fetch, maxRetries: 0 });
    const error = await client.skills.get(1, { timeout: 10 }).catch((e: unknown) => e);
    expect(inspect(error, { depth: Number.POSITIVE_INFINITY, showHidden: true })).not.toContain(TOKEN);
  });

  it('5 not through the logger', async () => {
    const lines: string[] = [];
    const { fetch } = fakeFetch(new TypeError('fetch failed'));
    const log = (message: string, fields?: unknown) => lines.push(message + JSON.stringify(fields));
    const client = new Client({
      baseUrl: 'https://a.test',
      token: TOKEN,
      fetch,
      logger: { debug: log, warn: log },
      retryDelay: { min: 1, max: 2 },
    });
    await expect(client.skills.get(1)).rejects.toBeInstanceOf(ConnectionError);
    expect(lines.join('\n')).not.toContain(TOKEN);
  });

  it('reads CONVO_API_TOKEN and CONVO_BASE_URL when the options are absent', async () => {
    process.env.CONVO_API_TOKEN = TOKEN;
    process.env.CONVO_BASE_URL = 'https://env.test';
    try {
      const { fetch, requests } = fakeFetch(fail(404, 'api_v1_not_found'));
      await new Client({ fetch }).skills.get(1).catch(() => undefined);
      expect(requests[0]?.url).toBe('https://env.test/api/v1/skills/1');
      expect(requests[0]?.headers.get('authorization')).toBe(`Bearer ${TOKEN}`);
    } finally {
      delete process.env.CONVO_API_TOKEN;
      delete process.env.CONVO_BASE_URL;
    }
  });
});
