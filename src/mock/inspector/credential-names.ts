import type { CredentialRecord } from '../state/store.js';

/**
 * How the inspector names credentials without showing a token: by the `name` a credential was given in
 * code (`createMock({ tokens: [{ token, name: 'alice' }] })`) or by `convo-mock --token T --name alice`,
 * as `alice #2 user 1`. An unnamed credential is named by its id, a masked form of its token (the first
 * two characters when it has at least 8, and its length) and its user: `#2 ta…(25) user 1`. Two tokens
 * of one user are told apart; the token itself never appears.
 */
export class CredentialNames {
  readonly #byToken = new Map<string, CredentialRecord>();
  readonly #byId = new Map<number, CredentialRecord>();

  constructor(credentials: readonly CredentialRecord[]) {
    for (const credential of credentials) {
      this.#byToken.set(credential.token, credential);
      this.#byId.set(credential.id, credential);
    }
  }

  /** The name of credential `id`. */
  name(id: number): string {
    const credential = this.#byId.get(id);
    return credential ? nameOf(credential) : `#${id}`;
  }

  /** The credential a bearer token belongs to, if any. */
  byToken(token: string): CredentialRecord | undefined {
    return this.#byToken.get(token);
  }

  /** The credential with that id, if any. */
  byId(id: number): CredentialRecord | undefined {
    return this.#byId.get(id);
  }

  /** Every credential, named, with its user and scopes. */
  list(): Array<{ id: number; name: string; user: number; scopes: readonly string[] }> {
    return [...this.#byId.values()].map((c) => ({
      id: c.id,
      name: nameOf(c),
      user: c.userId,
      scopes: c.scopes,
    }));
  }
}

/** A token as the inspector may show it: `ta…(25)`, or `…(5)` for one under 8 characters. */
function maskToken(token: string): string {
  return `${token.length >= 8 ? token.slice(0, 2) : ''}…(${token.length})`;
}

function nameOf(credential: CredentialRecord): string {
  const { id, name, token, userId } = credential;
  return name === undefined ? `#${id} ${maskToken(token)} user ${userId}` : `${name} #${id} user ${userId}`;
}
