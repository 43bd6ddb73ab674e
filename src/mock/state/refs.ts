import { ApiFailure } from '../wire/respond.js';
import { canSeeSkill, canUseConnector, canUseFile, canUseLibrary, canUseTool } from './access.js';
import type { CredentialRecord, MockStore } from './store.js';

/** An id as the instructions wrote it: a number for a plain decimal integer, the raw text otherwise. */
type WrittenId = number | string;

// `{{type:id}}`, spaces around either part tolerated; `{{name}}` without a colon is not a reference.
const REFERENCE = /\{\{([^{}:]+):([^{}]*)\}\}/g;

/**
 * The references of `instructions` that `credential` may not cite, grouped by type as written
 * (`{ library: [99], widget: [1] }`), each id once in order of appearance; undefined when all are valid.
 * Invalid: an unknown type, an id that is not an integer, that does not exist, or that the credential
 * cannot use (rules of access.ts).
 */
function invalidRefs(
  store: MockStore,
  credential: CredentialRecord,
  instructions: string,
): Record<string, WrittenId[]> | undefined {
  // A Map, not an object: a written type such as `__proto__` must stay a plain key.
  const invalid = new Map<string, WrittenId[]>();
  for (const match of instructions.matchAll(REFERENCE)) {
    const type = (match[1] ?? '').trim();
    const text = (match[2] ?? '').trim();
    const id = /^(0|[1-9]\d*)$/.test(text) ? Number(text) : undefined;
    if (id !== undefined && isUsable(store, credential, type, id)) continue;
    const written: WrittenId = id ?? text;
    const group = invalid.get(type) ?? [];
    if (!group.includes(written)) group.push(written);
    invalid.set(type, group);
  }
  return invalid.size > 0 ? Object.fromEntries(invalid) : undefined;
}

/** Throws 422 `prompt_refs_invalid` with `data: [groups]` (7.2) when `instructions` cite invalid references. */
export function checkRefs(store: MockStore, credential: CredentialRecord, instructions: string): void {
  const invalid = invalidRefs(store, credential, instructions);
  if (invalid) {
    throw new ApiFailure(422, 'prompt_refs_invalid', 'The instructions cite resources that cannot be used.', [
      invalid,
    ]);
  }
}

/** Whether `credential` may cite `{{type:id}}`; the types skill instructions may cite are the cases (4.1). */
function isUsable(store: MockStore, credential: CredentialRecord, type: string, id: number): boolean {
  const { fixtures } = store;
  switch (type) {
    case 'library':
      return canUseLibrary(fixtures, credential, id);
    case 'file':
      return canUseFile(fixtures, credential, id);
    case 'connector':
      return canUseConnector(fixtures, credential, id);
    case 'tool':
      return canUseTool(fixtures, credential, id);
    case 'skill': {
      const skill = store.skillsById.get(id);
      return skill !== undefined && canSeeSkill(credential, skill);
    }
    default:
      return false;
  }
}
