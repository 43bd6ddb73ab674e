import { LIMITS } from '../../../contract/limits.js';
import { type Skill, SkillCreateSchema, SkillUpdateSchema } from '../../../contract/skill.js';
import { charCount } from '../../../contract/text.js';
import { canSeeSkill, canUseLibrary, isColleague } from '../../state/access.js';
import { checkRefs } from '../../state/refs.js';
import { createSkill, deleteSkill, toggleSkill, unique, updateSkill } from '../../state/skill-records.js';
import type { CredentialRecord, MockStore, SkillRecord } from '../../state/store.js';
import { readJson, validate } from '../../wire/input.js';
import { ApiFailure, notFound, success } from '../../wire/respond.js';
import type { Handlers } from '../handler.js';
import { paginate } from '../paging.js';

/**
 * The skills endpoints (4.1). After the scope check (403), each handler checks in the order the mock
 * promises: JSON 400, validation 422, existence 404, policy 403, references 422; nothing is saved until
 * every check passed.
 */
export function skillHandlers(store: MockStore) {
  /** Finds a skill the credential sees; anything else is 404, never 403 (section 5). */
  const visibleSkill = (credential: CredentialRecord, rawId: string): SkillRecord => {
    const skill = store.skillsById.get(Number(rawId));
    if (!skill || !canSeeSkill(credential, skill)) throw notFound('Skill');
    return skill;
  };

  return {
    'skills.list': (c) => {
      const credential = c.get('credential');
      const visible = [...store.skillsById.values()]
        .filter((skill) => canSeeSkill(credential, skill))
        .sort((a, b) => a.id - b.id);
      const { items, meta } = paginate(visible, new URL(c.req.url).searchParams);
      return success(items.map(publicSkill), { page: meta });
    },

    'skills.create': async (c) => {
      const credential = c.get('credential');
      const body = await readJson(c.req.raw);
      checkInstructionsLength(body);
      const input = validate(SkillCreateSchema, body);
      if (credential.allow.skills) {
        throw new ApiFailure(
          403,
          'api_v1_resource_policy_create_denied',
          'This token is restricted to listed skills and cannot create new ones.',
        );
      }
      checkPlacement(store, credential, input);
      checkRefs(store, credential, input.instructions);

      const skill = createSkill(store, credential, input);
      return success(publicSkill(skill), { status: 201, message: 'Skill created.' });
    },

    'skills.get': (c) => {
      return success(publicSkill(visibleSkill(c.get('credential'), c.req.param('skill_id'))));
    },

    'skills.update': async (c) => {
      const credential = c.get('credential');
      const body = await readJson(c.req.raw);
      checkInstructionsLength(body);
      const input = validate(SkillUpdateSchema, body);
      const skill = visibleSkill(credential, c.req.param('skill_id'));
      checkPlacement(store, credential, input);
      // 4.1: references are revalidated when the instructions change; resending the same text is no change.
      if (input.instructions !== undefined && input.instructions !== skill.instructions) {
        checkRefs(store, credential, input.instructions);
      }

      updateSkill(skill, input);
      return success(publicSkill(skill), { message: 'Skill updated.' });
    },

    'skills.toggle': (c) => {
      const skill = visibleSkill(c.get('credential'), c.req.param('skill_id'));
      const active = toggleSkill(skill);
      return success(publicSkill(skill), { message: active ? 'Skill enabled.' : 'Skill disabled.' });
    },

    'skills.delete': (c) => {
      const skill = visibleSkill(c.get('credential'), c.req.param('skill_id'));
      deleteSkill(store, skill);
      return success({ id: skill.id }, { message: 'Skill deleted.' });
    },
  } satisfies Partial<Handlers>;
}

/** The fields of 2.2, in its order; owner, sharing and deletion stay inside the mock. */
function publicSkill(skill: SkillRecord): Skill {
  return {
    id: skill.id,
    name: skill.name,
    description: skill.description,
    instructions: skill.instructions,
    icon: skill.icon,
    level: skill.level,
    visibility: skill.visibility,
    workspace_id: skill.workspace_id,
    is_active: skill.is_active,
    created_at: skill.created_at,
  };
}

/**
 * 422 `prompt_text_too_long` for instructions over 12,000 characters (7.2). Checked before the schema,
 * which also bounds them, so that this code wins over the generic `api_v1_validation_error`.
 */
function checkInstructionsLength(body: unknown): void {
  if (typeof body !== 'object' || body === null || !('instructions' in body)) return;
  const { instructions } = body;
  if (typeof instructions === 'string' && charCount(instructions) > LIMITS.skillInstructions) {
    const limit = LIMITS.skillInstructions;
    throw new ApiFailure(422, 'prompt_text_too_long', `The instructions exceed ${limit} characters.`, [
      { field: 'instructions', message: `must be at most ${limit} characters`, limit },
    ]);
  }
}

/**
 * 403 `api_v1_resource_not_allowed` (7.2) for a `workspace_id` the credential cannot use, or a
 * `shared_user_ids` entry outside the user's company; `data` names the field and the offending ids.
 */
function checkPlacement(
  store: MockStore,
  credential: CredentialRecord,
  input: { workspace_id?: number | undefined; shared_user_ids?: number[] | undefined },
): void {
  const workspace = input.workspace_id;
  if (workspace !== undefined && !canUseLibrary(store.fixtures, credential, workspace)) {
    throw new ApiFailure(403, 'api_v1_resource_not_allowed', 'The library is outside this token’s scope.', {
      field: 'workspace_id',
      ids: [workspace],
    });
  }
  const strangers = unique(input.shared_user_ids ?? []).filter((id) => !isColleague(credential, id));
  if (strangers.length > 0) {
    throw new ApiFailure(
      403,
      'api_v1_resource_not_allowed',
      'Skills can be shared only within the company.',
      {
        field: 'shared_user_ids',
        ids: strangers,
      },
    );
  }
}
