import { describe, expect, it } from 'vitest';
import { ENDPOINTS, pathPattern } from '../../src/contract/endpoints.js';
import type { Client } from '../../src/index.js';
import { CLIENT_ENDPOINTS, type ClientEndpoint, PUBLIC_METHODS } from '../support/client-endpoints.js';
import { fakeClient } from '../support/fake-client.js';
import { fail, fakeFetch } from '../support/fake-fetch.js';

const CHAT = '00000000-0000-4000-8000-000000000001';
const ANSWER = { action_id: 'a1' };

/**
 * One call with valid input per endpoint of the table: an endpoint added to the table fails to compile here
 * until the client has a method for it.
 */
const SAMPLES = {
  'skills.list': (c) => c.skills.list(),
  'skills.create': (c) => c.skills.create({ name: 'n', instructions: 'i' }),
  'skills.get': (c) => c.skills.get(7),
  'skills.update': (c) => c.skills.update(7, { name: 'm' }),
  'skills.toggle': (c) => c.skills.toggle(7),
  'skills.delete': (c) => c.skills.delete(7),
  'chats.list': (c) => c.chats.list({ is_favorite: true }),
  'chats.create': (c) => c.chats.create({ name: 'c' }),
  'chats.get': (c) => c.chats.get(CHAT),
  'chats.update': (c) => c.chats.update(CHAT, { is_favorite: true }),
  'chats.delete': (c) => c.chats.delete(CHAT),
  'chats.messages': (c) => c.chats.messages(CHAT),
  'chats.catalog': (c) => c.chats.catalog(),
  'turns.send': (c) => c.turns.send(CHAT, { content: 'hi' }),
  'turns.stream': (c) => c.turns.stream(CHAT, { content: 'hi' }).finalTurn(),
  'turns.cancel': (c) => c.turns.cancel(CHAT),
  'actions.approveTool': (c) =>
    c.actions.approveTool(CHAT, { ...ANSWER, decisions: [{ tool_use_id: 't', approved: true }] }),
  'actions.respondPlan': (c) => c.actions.respondPlan(CHAT, { ...ANSWER, action: 'approve' }),
  'actions.respondElicitation': (c) => c.actions.respondElicitation(CHAT, { ...ANSWER, action: 'decline' }),
  'actions.cancelAuth': (c) => c.actions.cancelAuth(CHAT, ANSWER),
} satisfies Record<ClientEndpoint, (client: Client) => unknown>;

const pattern = (path: string) => new RegExp(`^${pathPattern(path)}$`);

describe('4 the endpoint table drives the client', () => {
  it('4 the resources have exactly one method per endpoint of the table, and the composed ones', () => {
    const client = fakeClient(fakeFetch(new Error('unused')).fetch);
    const methods = (['skills', 'chats', 'turns', 'actions'] as const).flatMap((name) =>
      Object.getOwnPropertyNames(Object.getPrototypeOf(client[name]))
        .filter((method) => method !== 'constructor')
        .map((method) => `${name}.${method}`),
    );
    expect(methods.sort()).toEqual([...PUBLIC_METHODS].sort());
  });

  for (const name of CLIENT_ENDPOINTS) {
    const endpoint = ENDPOINTS[name];
    it(`${endpoint.section} ${name} sends ${endpoint.method} /api/v1/${endpoint.path} as the table says`, async () => {
      // A 404 is never repeated, whatever the endpoint's retry kind: one request each.
      const { fetch, requests } = fakeFetch(fail(404, 'api_v1_not_found'));
      await Promise.resolve(SAMPLES[name](fakeClient(fetch, { maxRetries: 0 }))).catch(() => {});
      expect(requests).toHaveLength(1);
      const [request] = requests;
      expect(request?.method).toBe(endpoint.method);
      expect(new URL(request?.url ?? '').pathname).toMatch(pattern(endpoint.path));
      expect(request?.headers.has('idempotency-key')).toBe('idempotencyKey' in endpoint);
      expect(request?.body !== undefined).toBe('body' in endpoint);
    });
  }
});
