import { describe, expect, it } from 'vitest';
import { createMock, parseTokenFlag, SCOPES } from '../../src/mock/index.js';
import { call, outcome } from './helpers.js';

describe('parseTokenFlag (mock-conventions --token TOKEN[=SCOPES][@USER])', () => {
  it('a bare token has every scope and user 1', () => {
    expect(parseTokenFlag('a')).toEqual({ token: 'a', scopes: [...SCOPES], userId: 1 });
  });

  it('"TOKEN=" has no scope', () => {
    expect(parseTokenFlag('a=')).toEqual({ token: 'a', scopes: [], userId: 1 });
  });

  it('a comma list of scopes and @USER', () => {
    expect(parseTokenFlag('a=skills:read,chat:write@2')).toEqual({
      token: 'a',
      scopes: ['skills:read', 'chat:write'],
      userId: 2,
    });
  });

  it('@USER without scopes keeps every scope', () => {
    expect(parseTokenFlag('b@4')).toEqual({ token: 'b', scopes: [...SCOPES], userId: 4 });
  });

  it('"TOKEN=@USER" has no scope', () => {
    expect(parseTokenFlag('b=@3')).toEqual({ token: 'b', scopes: [], userId: 3 });
  });

  it('repeated scopes and stray commas are tolerated', () => {
    expect(parseTokenFlag('a=skills:read,,skills:read,').scopes).toEqual(['skills:read']);
  });

  it('an unknown scope is rejected, naming it and the known ones', () => {
    expect(() => parseTokenFlag('a=skills:read,skills:admin')).toThrow(
      /unknown scope "skills:admin".*skills:read/,
    );
  });

  it('an empty token or a user that is not an id is rejected', () => {
    expect(() => parseTokenFlag('=skills:read')).toThrow(/TOKEN/);
    expect(() => parseTokenFlag('a@bob')).toThrow(/user id/);
    expect(() => parseTokenFlag('a@0')).toThrow(/user id/);
  });
});

describe('5 credentials of createMock', () => {
  it('5 without tokens: mock-token, every scope, user 1', () => {
    const [credential, ...others] = createMock().store.credentials();
    expect(others).toEqual([]);
    expect(credential).toMatchObject({ token: 'mock-token', scopes: [...SCOPES], userId: 1, companyId: 1 });
  });

  it('5 every credential is its own: distinct ids, even for the same user', () => {
    const mock = createMock({ tokens: [{ token: 'a' }, { token: 'b' }] });
    const [a, b] = mock.store.credentials();
    expect(a?.userId).toBe(b?.userId);
    expect(a?.id).not.toBe(b?.id);
  });

  it('5 the default token is not accepted once tokens are configured', async () => {
    const mock = createMock({ tokens: [{ token: 'a' }] });
    expect(outcome(await call(mock, 'GET', '/api/v1/skills'))).toEqual([401, 'api_v1_unauthorized']);
    expect((await call(mock, 'GET', '/api/v1/skills', { token: 'a' })).status).toBe(200);
  });

  it('a duplicate token, an unknown user or an unknown scope is a configuration error', () => {
    expect(() => createMock({ tokens: [{ token: 'a' }, { token: 'a' }] })).toThrow(/twice/);
    expect(() => createMock({ tokens: [{ token: 'a', userId: 99 }] })).toThrow(/unknown user 99/);
    // A JavaScript caller is not stopped by the types.
    const scopes = ['skills:admin'] as unknown as ['skills:read'];
    expect(() => createMock({ tokens: [{ token: 'a', scopes }] })).toThrow(/unknown scope/);
  });

  it('a credential name is 1 to 64 printable characters, kept for the inspector', () => {
    expect(createMock({ tokens: [{ token: 'a', name: 'alice' }] }).store.credentials()[0]?.name).toBe(
      'alice',
    );
    for (const name of ['', 'x'.repeat(65), 'a\nb', '<script>\u0000'])
      expect(() => createMock({ tokens: [{ token: 'a', name }] })).toThrow(/credential name/);
  });

  it('the credentials are copies: changing them changes nothing', () => {
    const mock = createMock();
    const [credential] = mock.store.credentials();
    (credential?.scopes as string[]).length = 0;
    expect(mock.store.credentials()[0]?.scopes).toEqual([...SCOPES]);
  });
});
