import { describe, expect, it } from 'vitest';
import { createMock } from '../../src/mock/index.js';
import { call, errorDataOf, outcome, TOKENS } from './helpers.js';

const mock = createMock({ tokens: TOKENS });

describe('5 authentication', () => {
  it('5 no Authorization header -> 401 api_v1_unauthorized', async () => {
    const reply = await call(mock, 'GET', '/api/v1/skills', { token: null });
    expect(outcome(reply)).toEqual([401, 'api_v1_unauthorized']);
    expect(errorDataOf(reply)).toBeNull();
  });

  it('5 a malformed Authorization header -> 401', async () => {
    for (const authorization of ['mock-token', 'Basic bW9jay10b2tlbg==', 'Bearer', 'Bearer a b']) {
      const reply = await call(mock, 'GET', '/api/v1/skills', { token: null, headers: { authorization } });
      expect(outcome(reply), authorization).toEqual([401, 'api_v1_unauthorized']);
    }
  });

  it('5 an unknown token -> 401', async () => {
    expect(outcome(await call(mock, 'GET', '/api/v1/skills', { token: 'nobody' }))).toEqual([
      401,
      'api_v1_unauthorized',
    ]);
  });

  it('5 the scheme is case-insensitive', async () => {
    const reply = await call(mock, 'GET', '/api/v1/skills', {
      token: null,
      headers: { authorization: 'bearer mock-token' },
    });
    expect(reply.status).toBe(200);
  });

  it('5 authentication comes before routing: an unknown path under /api/v1 without a token is 401', async () => {
    expect((await call(mock, 'GET', '/api/v1/nothing', { token: null })).status).toBe(401);
  });
});

describe('5 scopes', () => {
  it('5 missing scope -> 403 api_token_scope_not_allowed with required_scopes', async () => {
    const reply = await call(mock, 'POST', '/api/v1/skills', {
      token: 'read-only',
      body: { name: 'n', instructions: 'i' },
    });
    expect(outcome(reply)).toEqual([403, 'api_token_scope_not_allowed']);
    expect(errorDataOf(reply)).toEqual({ required_scopes: ['skills:write'] });
  });

  it('5 reading needs skills:read on list and get', async () => {
    for (const path of ['/api/v1/skills', '/api/v1/skills/1']) {
      const reply = await call(mock, 'GET', path, { token: 'write-only' });
      expect(outcome(reply), path).toEqual([403, 'api_token_scope_not_allowed']);
      expect(reply.body.data).toEqual({ required_scopes: ['skills:read'] });
    }
  });

  it('5 every write endpoint needs skills:write', async () => {
    const writes: Array<[string, string]> = [
      ['POST', '/api/v1/skills'],
      ['PATCH', '/api/v1/skills/1'],
      ['PATCH', '/api/v1/skills/1/toggle'],
      ['DELETE', '/api/v1/skills/1'],
    ];
    for (const [method, path] of writes) {
      const reply = await call(mock, method, path, { token: 'no-scope', body: {} });
      expect(reply.body.data, `${method} ${path}`).toEqual({ required_scopes: ['skills:write'] });
    }
  });

  it('5 the scope check comes before the body: bad JSON without the scope is 403', async () => {
    const reply = await call(mock, 'POST', '/api/v1/skills', { token: 'read-only', body: '{nope' });
    expect(reply.status).toBe(403);
  });

  it('5 the scope check comes before existence: a missing skill without the scope is 403', async () => {
    expect((await call(mock, 'GET', '/api/v1/skills/999', { token: 'no-scope' })).status).toBe(403);
  });
});
