import * as z from 'zod/mini';
import { IntId, maxChars, Timestamp } from './checks.js';
import { LIMITS } from './limits.js';
import { PageQuerySchema } from './page.js';

/** Who a skill belongs to; fixed after creation. */
export const SKILL_LEVELS = ['personal', 'company', 'workspace'] as const;
/** Who may see a skill. */
export const SKILL_VISIBILITIES = ['public', 'private', 'shared'] as const;

/** A skill's level: `personal`, `company` or `workspace`. */
export type SkillLevel = (typeof SKILL_LEVELS)[number];
/** A skill's visibility: `public`, `private` or `shared`. */
export type SkillVisibility = (typeof SKILL_VISIBILITIES)[number];

/** A skill as the service returns it (2.2); fields the contract does not name are kept. */
export const SkillSchema = z.looseObject({
  id: IntId,
  name: z.string(),
  description: z.string(),
  instructions: z.string(),
  icon: z.string(),
  level: z.enum(SKILL_LEVELS),
  visibility: z.enum(SKILL_VISIBILITIES),
  workspace_id: z.nullable(IntId),
  is_active: z.boolean(),
  created_at: Timestamp,
});
/** A reusable block of instructions that can be attached to a turn. */
export type Skill = z.infer<typeof SkillSchema>;

/** The fields create and update share, with their limits (4.1, 8; 2.2 bounds the stored fields). */
const editable = {
  name: maxChars(LIMITS.skillName),
  instructions: maxChars(LIMITS.skillInstructions),
  description: z.optional(maxChars(LIMITS.skillDescription)),
  icon: z.optional(z.string()),
  visibility: z.optional(z.enum(SKILL_VISIBILITIES)),
  workspace_id: z.optional(IntId),
  shared_user_ids: z.optional(z.array(IntId)),
};

/** Body of `POST /skills` (4.1). */
export const SkillCreateSchema = z
  .looseObject({ ...editable, level: z.optional(z.enum(SKILL_LEVELS)) })
  .check(
    z.refine((body) => body.level !== 'workspace' || body.workspace_id !== undefined, {
      message: 'is required with level "workspace"',
      path: ['workspace_id'],
    }),
  );
/** Body of `POST /skills`. */
export type SkillCreate = z.input<typeof SkillCreateSchema>;

/** Body of `PATCH /skills/{id}` (4.1): every field optional; `level` is fixed after creation. */
export const SkillUpdateSchema = z.looseObject({
  name: z.optional(editable.name),
  instructions: z.optional(editable.instructions),
  description: editable.description,
  icon: editable.icon,
  visibility: editable.visibility,
  workspace_id: editable.workspace_id,
  shared_user_ids: editable.shared_user_ids,
  level: z.optional(z.never('is fixed after creation')),
});
/** Body of `PATCH /skills/{id}`. */
export type SkillUpdate = Omit<z.input<typeof SkillUpdateSchema>, 'level'>;

/** Query of `GET /skills`. */
export const SkillListQuerySchema = PageQuerySchema;

/** `data` of `DELETE /skills/{id}`. */
export const SkillDeletedSchema = z.looseObject({ id: IntId });
/** What deleting a skill returns. */
export type SkillDeleted = z.infer<typeof SkillDeletedSchema>;
