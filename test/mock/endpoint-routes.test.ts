import { describe, expect, it } from 'vitest';
import { ENDPOINT_NAMES, ENDPOINTS } from '../../src/contract/endpoints.js';
import { createMock } from '../../src/mock/index.js';
import { call, errorDataOf, outcome, TOKENS } from './helpers.js';

const mock = createMock({ tokens: TOKENS });
const IDS = { chat_id: crypto.randomUUID(), skill_id: '1' };
const METHODS = ['GET', 'POST', 'PATCH', 'DELETE'] as const;

/** An endpoint's concrete path: its template with ids filled in. */
const pathOf = (template: string) =>
  `/api/v1/${template.replace(/\{(\w+)\}/g, (_, name: keyof typeof IDS) => IDS[name])}`;

describe('4 the mock serves the endpoint table', () => {
  for (const name of ENDPOINT_NAMES) {
    const { method, path, scopes } = ENDPOINTS[name];
    it(`5 ${name}: ${method} /api/v1/${path} is served, behind the table's scopes`, async () => {
      const reply = await call(mock, method, pathOf(path), { token: 'no-scope', body: {} });
      if (scopes.length === 0) {
        expect(reply.status).toBe(200);
      } else {
        expect(outcome(reply)).toEqual([403, 'api_token_scope_not_allowed']);
        expect(errorDataOf(reply)).toEqual({ required_scopes: [...scopes] });
      }
    });
  }

  it('7.1 a method the table does not give a path is 404, not a scope error', async () => {
    const served = new Set(ENDPOINT_NAMES.map((name) => `${ENDPOINTS[name].method} ${ENDPOINTS[name].path}`));
    const unserved = [...new Set(ENDPOINT_NAMES.map((name) => ENDPOINTS[name].path))].flatMap((path) =>
      METHODS.filter((method) => !served.has(`${method} ${path}`)).map((method) => [method, path] as const),
    );
    expect(unserved.length).toBeGreaterThan(20);
    for (const [method, path] of unserved) {
      const reply = await call(mock, method, pathOf(path), { token: 'no-scope', body: {} });
      expect(outcome(reply), `${method} ${path}`).toEqual([404, 'api_v1_not_found']);
    }
  });
});
