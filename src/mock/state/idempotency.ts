import { ApiFailure } from '../wire/respond.js';
import type { TurnRecord } from './records.js';
import type { CredentialRecord, MockStore } from './store.js';

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
  const bound = store.keyOf(credential.id, key);
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
  store.bindKey({ credential_id: credential.id, key, fingerprint: print, turn_id: turnId });
}

/** 409 `api_v1_turn_in_progress`: the key's turn still runs. */
export function turnInProgress(): ApiFailure {
  return new ApiFailure(
    409,
    'api_v1_turn_in_progress',
    'The turn for this Idempotency-Key is still running.',
  );
}

/**
 * Canonical JSON, written with an explicit stack rather than recursion: a body is capped in bytes, not in
 * depth, and a few hundred thousand nested arrays must not overflow the call stack (a 500).
 */
function canonical(root: unknown): string {
  const out: string[] = [];
  // Each entry is a value still to write, or text to emit as is (a separator or a closing bracket).
  const work: Array<{ value: unknown } | string> = [{ value: root }];
  for (let item = work.pop(); item !== undefined; item = work.pop()) {
    if (typeof item === 'string') {
      out.push(item);
      continue;
    }
    const { value } = item;
    if (value === null || typeof value !== 'object') {
      out.push(JSON.stringify(value) ?? 'null');
      continue;
    }
    const isArray = Array.isArray(value);
    const keys = isArray ? [] : Object.keys(value).sort();
    const parts: Array<{ value: unknown } | string> = [isArray ? '[' : '{'];
    const members = isArray ? (value as unknown[]) : keys;
    members.forEach((member, index) => {
      if (index > 0) parts.push(',');
      if (isArray) parts.push({ value: member });
      else {
        parts.push(`${JSON.stringify(member)}:`);
        parts.push({ value: (value as Record<string, unknown>)[member as string] });
      }
    });
    parts.push(isArray ? ']' : '}');
    // The first part is written now; the rest go on the stack in reverse, to come off in order.
    out.push(parts[0] as string);
    for (let index = parts.length - 1; index > 0; index--)
      work.push(parts[index] as { value: unknown } | string);
  }
  return out.join('');
}
