import type { TurnRecord } from './records.js';
import { ApiFailure } from './respond.js';
import { type CredentialRecord, keyId, type MockStore } from './store.js';

/**
 * `Idempotency-Key` bindings (4.3, 4.4): per credential, one key is one turn. The key space is shared by
 * the synchronous and the streaming send, so a key first used on one replays on the other.
 */

/**
 * What "the same body" compares: canonical JSON of the chat id and the body as sent, object keys sorted
 * at every depth (so key order does not matter), arrays in order. Written as text directly, so that a key
 * such as `__proto__` is data like any other.
 */
export function fingerprint(chatId: string, body: unknown): string {
  return canonical({ chat_id: chatId, body });
}

/**
 * The stored turn of a key, or undefined for a key never used by `credential`. 409
 * `api_v1_idempotency_conflict` when the key was used with another body, 409 `api_v1_turn_in_progress`
 * when its turn still runs.
 */
export function boundTurn(
  store: MockStore,
  credential: CredentialRecord,
  key: string,
  print: string,
): TurnRecord | undefined {
  const bound = store.keys.get(keyId(credential.id, key));
  if (!bound) return undefined;
  if (bound.fingerprint !== print) {
    throw new ApiFailure(
      409,
      'api_v1_idempotency_conflict',
      'This Idempotency-Key was used with a different request.',
    );
  }
  const turn = store.turnsById.get(bound.turn_id);
  if (!turn || turn.status === 'pending') throw turnInProgress();
  return turn;
}

/** Binds `key` of `credential` to the turn it started. */
export function bindKey(
  store: MockStore,
  credential: CredentialRecord,
  key: string,
  print: string,
  turnId: number,
): void {
  store.keys.set(keyId(credential.id, key), {
    credential_id: credential.id,
    key,
    fingerprint: print,
    turn_id: turnId,
  });
}

/** 409 `api_v1_turn_in_progress`: the key's turn still runs. */
export function turnInProgress(): ApiFailure {
  return new ApiFailure(
    409,
    'api_v1_turn_in_progress',
    'The turn for this Idempotency-Key is still running.',
  );
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
