import * as z from 'zod/mini';
import { intId, maxChars, openEnum, timestamp } from './checks.js';
import { lazy } from './lazy.js';
import { LIMITS } from './limits.js';
import { pageQuerySchema } from './page.js';

/** Who a skill belongs to; fixed after creation. */
export const SKILL_LEVELS = ['personal', 'company', 'workspace'] as const;
/** Who may see a skill. */
export const SKILL_VISIBILITIES = ['public', 'private', 'shared'] as const;

/** A skill's level: `personal`, `company` or `workspace`. */
export type SkillLevel = (typeof SKILL_LEVELS)[number];
/** A skill's visibility: `public`, `private` or `shared`. */
export type SkillVisibility = (typeof SKILL_VISIBILITIES)[number];

/** A reusable block of instructions that can be attached to a turn (2.2). */
export interface Skill {
  /** Identifier. */
  id: number;
  /** Up to 255 characters. */
  name: string;
  /** Up to 500 characters. */
  description: string;
  /** Up to 12,000 characters; may cite resources with `{{type:id}}`. */
  instructions: string;
  /** Icon name. */
  icon: string;
  /** Who the skill belongs to; a newer service may add levels. */
  level: SkillLevel | (string & {});
  /** Who may see it; a newer service may add values. */
  visibility: SkillVisibility | (string & {});
  /** The owning library with `level: workspace`, else null. */
  workspace_id: number | null;
  /** Whether the skill is enabled. */
  is_active: boolean;
  /** Creation time (ISO 8601). */
  created_at: string;
}

/** A skill as the service returns it (2.2); fields the contract does not name are kept. */
export const skillSchema = lazy(() =>
  z.looseObject({
    id: intId(),
    name: z.string(),
    description: z.string(),
    instructions: z.string(),
    icon: z.string(),
    level: openEnum<SkillLevel>(),
    visibility: openEnum<SkillVisibility>(),
    workspace_id: z.nullable(intId()),
    is_active: z.boolean(),
    created_at: timestamp(),
  }),
);
/** A skill as the service returns it (`skillSchema`'s schema). */
export const SkillSchema = /* @__PURE__ */ skillSchema();

/** The fields create and update share, with their limits (4.1, 8; 2.2 bounds the stored fields). */
const editable = lazy(() => ({
  name: maxChars(LIMITS.skillName),
  instructions: maxChars(LIMITS.skillInstructions),
  description: z.optional(maxChars(LIMITS.skillDescription)),
  icon: z.optional(z.string()),
  visibility: z.optional(z.enum(SKILL_VISIBILITIES)),
  workspace_id: z.optional(intId()),
  shared_user_ids: z.optional(z.array(intId())),
}));

/** Body of `POST /skills` (4.1). */
export interface SkillCreate {
  /** Up to 255 characters. */
  name: string;
  /** Up to 12,000 characters. */
  instructions: string;
  /** Up to 500 characters. */
  description?: string | undefined;
  /** Icon name. */
  icon?: string | undefined;
  /** `personal` (default), `company` or `workspace` (then `workspace_id` names the owning library). */
  level?: SkillLevel | undefined;
  /** `public` (default), `private` or `shared`. */
  visibility?: SkillVisibility | undefined;
  /** The owning library, with `level: workspace`. */
  workspace_id?: number | undefined;
  /** The users a `shared` skill is shared with. */
  shared_user_ids?: number[] | undefined;
}

/**
 * Body of `POST /skills` (4.1); an unknown field is refused. `workspace_id` stays optional with
 * `level: workspace`, as 4.1's create table marks it ("no"): the service decides what a workspace skill
 * without one means.
 */
export const skillCreateSchema = lazy(() =>
  z.strictObject({ ...editable(), level: z.optional(z.enum(SKILL_LEVELS)) }),
);
/** Body of `POST /skills` (`skillCreateSchema`'s schema). */
export const SkillCreateSchema = /* @__PURE__ */ skillCreateSchema();

/** Body of `PATCH /skills/{id}` (4.1): every field optional; `level` is fixed after creation. */
export interface SkillUpdate {
  /** Up to 255 characters. */
  name?: string | undefined;
  /** Up to 12,000 characters; its references are checked again. */
  instructions?: string | undefined;
  /** Up to 500 characters. */
  description?: string | undefined;
  /** Icon name. */
  icon?: string | undefined;
  /** `public`, `private` or `shared`. */
  visibility?: SkillVisibility | undefined;
  /** The owning library. */
  workspace_id?: number | undefined;
  /** Replaces the list of users the skill is shared with. */
  shared_user_ids?: number[] | undefined;
}

/** Body of `PATCH /skills/{id}` (4.1); an unknown field is refused, `level` with its own reason. */
export const skillUpdateSchema = lazy(() => {
  const fields = editable();
  return z.strictObject({
    name: z.optional(fields.name),
    instructions: z.optional(fields.instructions),
    description: fields.description,
    icon: fields.icon,
    visibility: fields.visibility,
    workspace_id: fields.workspace_id,
    shared_user_ids: fields.shared_user_ids,
    level: z.optional(z.never('is fixed after creation')),
  });
});
/** Body of `PATCH /skills/{id}` (`skillUpdateSchema`'s schema). */
export const SkillUpdateSchema = /* @__PURE__ */ skillUpdateSchema();

/** Query of `GET /skills`. */
export const skillListQuerySchema = pageQuerySchema;

/** What deleting a skill returns. */
export interface SkillDeleted {
  /** The deleted skill's id. */
  id: number;
}

/** `data` of `DELETE /skills/{id}`. */
export const skillDeletedSchema = lazy(() => z.looseObject({ id: intId() }));
/** `data` of `DELETE /skills/{id}` (`skillDeletedSchema`'s schema). */
export const SkillDeletedSchema = /* @__PURE__ */ skillDeletedSchema();
