import { describe, expect, it } from 'vitest';
import { ANSWERS } from '../../src/contract/interactions.js';
import { routeOf } from '../../src/mock/http/route-paths.js';
import { createMock } from '../../src/mock/index.js';
import { call } from './helpers.js';

const mock = createMock();
const chat = `/api/v1/chats/${crypto.randomUUID()}`;

describe('the fault router derives from the routes', () => {
  const named = [
    [`${chat}/messages`, 'send'],
    [`${chat}/messages/stream`, 'stream'],
    [`${chat}/actions/cancel`, 'cancel'],
    ...Object.values(ANSWERS).map(({ endpoint }) => [`${chat}/actions/${endpoint}`, 'answer']),
  ] as const;

  for (const [path, route] of named) {
    it(`POST ${path.replace(chat, '/api/v1/chats/{chat_id}')} is the named route ${route}, and a route serves it`, async () => {
      expect(routeOf('POST', path)).toBe(route);
      // A body the schema refuses: 422 or 400 from the route itself, never the 404 of an unknown path.
      const reply = await call(mock, 'POST', path, { body: { action_id: 5 } });
      expect(reply.status).not.toBe(404);
    });
  }

  it('other paths and methods are not named: pattern faults serve them', () => {
    expect(routeOf('GET', `${chat}/messages`)).toBeUndefined();
    expect(routeOf('POST', `${chat}/actions/unknown`)).toBeUndefined();
    expect(routeOf('POST', '/api/v1/skills')).toBeUndefined();
  });
});
