import { SCOPES, type Scope } from '../../contract/scopes.js';

export { SCOPES, type Scope };

/** A resource allowlist (section 5): when a list is set, only those ids exist for the credential. */
export interface MockAllowlist {
  /** Skills the credential may see and change; creating skills is then denied (403). */
  skills?: readonly number[];
  /** Libraries the credential may use (a skill's `workspace_id`, `{{library:id}}`, their files). */
  libraries?: readonly number[];
}

/** A credential the mock accepts. */
export interface MockCredential {
  /** The bearer token. */
  token: string;
  /** Scopes granted; every scope when absent, none when empty. */
  scopes?: readonly Scope[];
  /** The user the credential acts for (a fixture user, 1 to 4); 1 when absent. */
  userId?: number;
  /** A resource allowlist; unrestricted when absent. */
  allow?: MockAllowlist;
  /** What the inspector calls it (`alice`, `reader`), at most 64 printable characters; masked token when absent. */
  name?: string;
}

/** The credential used when none is configured: `mock-token`, every scope, user 1. */
export const DEFAULT_CREDENTIAL: MockCredential = { token: 'mock-token' };

/** Whether `value` is a scope the contract names. */
export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/**
 * Parses a `--token TOKEN[=SCOPES][@USER]` value (mock-conventions.md): `a` has every scope, `a=` none,
 * `a=skills:read,chat:write@2` those two for user 2. Throws on an unknown scope or a malformed value.
 */
export function parseTokenFlag(flag: string): Required<Omit<MockCredential, 'allow' | 'name'>> {
  let rest = flag;
  let userId = 1;
  const at = rest.lastIndexOf('@');
  if (at !== -1) {
    const user = rest.slice(at + 1);
    if (!/^[1-9]\d*$/.test(user)) throw new Error(`--token "${flag}": USER after "@" must be a user id`);
    userId = Number(user);
    rest = rest.slice(0, at);
  }
  const eq = rest.indexOf('=');
  const token = eq === -1 ? rest : rest.slice(0, eq);
  if (token === '' || /\s/.test(token))
    throw new Error(`--token "${flag}": TOKEN must be non-empty, without spaces`);
  if (eq === -1) return { token, scopes: [...SCOPES], userId };

  const scopes: Scope[] = [];
  for (const name of rest.slice(eq + 1).split(',')) {
    const scope = name.trim();
    if (scope === '') continue;
    if (!isScope(scope)) {
      throw new Error(`--token "${flag}": unknown scope "${scope}" (known: ${SCOPES.join(', ')})`);
    }
    if (!scopes.includes(scope)) scopes.push(scope);
  }
  return { token, scopes, userId };
}
