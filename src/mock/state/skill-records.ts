/** Changing skills: the record rules the skill routes share, so that a route only checks and answers. */
import type { SkillCreate, SkillUpdate } from '../../contract/skill.js';
import type { CredentialRecord, MockStore, SkillRecord } from './store.js';

/** `ids` once each, in their first order: `shared_user_ids` is a set (2.2). */
export function unique(ids: readonly number[]): number[] {
  return [...new Set(ids)];
}

/** Stores a new skill owned by `credential`, from a checked create body; the defaults of 4.1 for what is absent. */
export function createSkill(store: MockStore, credential: CredentialRecord, input: SkillCreate): SkillRecord {
  const level = input.level ?? 'personal';
  const skill: SkillRecord = {
    id: store.nextId('skill'),
    name: input.name,
    description: input.description ?? '',
    instructions: input.instructions,
    icon: input.icon ?? 'sparkles',
    level,
    visibility: input.visibility ?? 'public',
    // 2.2: the owning library with level `workspace`, null otherwise (a stray id is not kept).
    workspace_id: level === 'workspace' ? (input.workspace_id ?? null) : null,
    is_active: true,
    created_at: store.timestamp(),
    shared_user_ids: unique(input.shared_user_ids ?? []),
    deleted_at: null,
    owner_credential_id: credential.id,
    owner_user_id: credential.userId,
  };
  store.addSkill(skill);
  return skill;
}

/** Applies a checked update (4.1): the fields given; `workspace_id` kept only by a workspace skill (2.2). */
export function updateSkill(skill: SkillRecord, input: SkillUpdate): void {
  if (input.name !== undefined) skill.name = input.name;
  if (input.instructions !== undefined) skill.instructions = input.instructions;
  if (input.description !== undefined) skill.description = input.description;
  if (input.icon !== undefined) skill.icon = input.icon;
  if (input.visibility !== undefined) skill.visibility = input.visibility;
  if (input.workspace_id !== undefined && skill.level === 'workspace')
    skill.workspace_id = input.workspace_id;
  if (input.shared_user_ids !== undefined) skill.shared_user_ids = unique(input.shared_user_ids);
}

/** Flips `is_active` (4.1 toggle) and returns the new value. */
export function toggleSkill(skill: SkillRecord): boolean {
  skill.is_active = !skill.is_active;
  return skill.is_active;
}

/** Soft-deletes the skill: every lookup treats it as absent from now on. */
export function deleteSkill(store: MockStore, skill: SkillRecord): void {
  skill.deleted_at = store.timestamp();
}
