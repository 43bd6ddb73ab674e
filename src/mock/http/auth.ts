import { createMiddleware } from 'hono/factory';
import type { Scope } from '../state/credentials.js';
import type { CredentialRecord, MockStore } from '../state/store.js';
import { ApiFailure } from '../wire/respond.js';

/** The hono environment of the mock's routes: the authenticated credential travels in the context. */
export interface MockEnv {
  /** Values set by middleware. */
  Variables: {
    /** The credential of the request, set by `authenticate`. */
    credential: CredentialRecord;
  };
}

const BEARER = /^Bearer +(\S+) *$/i;

/** 401 `api_v1_unauthorized` unless `Authorization: Bearer <token>` names a configured credential. */
export function authenticate(store: MockStore) {
  return createMiddleware<MockEnv>(async (c, next) => {
    const token = BEARER.exec(c.req.header('authorization') ?? '')?.[1];
    const credential = token === undefined ? undefined : store.credentialByToken(token);
    if (!credential) {
      throw new ApiFailure(401, 'api_v1_unauthorized', 'A valid bearer token is required.');
    }
    c.set('credential', credential);
    await next();
  });
}

/** 403 `api_token_scope_not_allowed` with `data.required_scopes` (the missing ones) unless all are held. */
export function requireScopes(...scopes: Scope[]) {
  return createMiddleware<MockEnv>(async (c, next) => {
    checkScopes(c.get('credential'), scopes);
    await next();
  });
}

/**
 * Throws the scope error of section 5 when `credential` lacks any of `scopes` (attachments use it too);
 * `required_scopes` names each missing scope once (`workspace_ids` and `file_ids` both need `libraries:read`).
 */
export function checkScopes(credential: CredentialRecord, scopes: readonly Scope[]): void {
  const missing = [...new Set(scopes)].filter((scope) => !credential.scopes.includes(scope));
  if (missing.length > 0) {
    throw new ApiFailure(
      403,
      'api_token_scope_not_allowed',
      `The token lacks the scope${missing.length > 1 ? 's' : ''} ${missing.join(', ')}.`,
      { required_scopes: missing },
    );
  }
}
