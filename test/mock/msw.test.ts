import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMock } from '../../src/mock/index.js';
import { mswHandlers } from '../../src/mock/msw.js';
import { parseReply } from './helpers.js';

const mock = createMock();
const custom = createMock({ tokens: [{ token: 'other' }] });
const server = setupServer(
  ...mswHandlers(mock),
  ...mswHandlers(custom, { baseUrl: 'https://api.example.test/' }),
);

beforeAll(() => server.listen());
afterAll(() => server.close());

describe('8 served by msw handlers', () => {
  it('the global fetch to http://convo.mock reaches the mock', async () => {
    const created = await fetch('http://convo.mock/api/v1/skills', {
      method: 'POST',
      headers: { authorization: 'Bearer mock-token', 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'n', instructions: 'i' }),
    });
    expect(created.status).toBe(201);
    expect(mock.store.skills().length).toBe(1);
  });

  it('errors and CORS headers pass through unchanged', async () => {
    const reply = await parseReply(
      await fetch('http://convo.mock/api/v1/skills', { headers: { origin: 'http://page.test' } }),
    );
    expect([reply.status, reply.body.message_code]).toEqual([401, 'api_v1_unauthorized']);
    expect(reply.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('baseUrl picks the origin to intercept (a trailing slash is ignored)', async () => {
    const reply = await fetch('https://api.example.test/api/v1/skills', {
      headers: { authorization: 'Bearer other' },
    });
    expect(reply.status).toBe(200);
  });
});
