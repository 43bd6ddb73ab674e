import * as z from 'zod/mini';
import { IntId } from '../contract/checks.js';
import type { PageQuery } from '../contract/page.js';
import {
  type Skill,
  type SkillCreate,
  SkillCreateSchema,
  type SkillDeleted,
  SkillDeletedSchema,
  SkillListQuerySchema,
  SkillSchema,
  type SkillUpdate,
  SkillUpdateSchema,
} from '../contract/skill.js';
import type { ApiPromise } from '../http/api-promise.js';
import type { PagePromise } from '../http/page.js';
import type { RequestOptions } from '../http/transport.js';
import { checkInput } from '../http/validate.js';
import { Resource } from './resource.js';

const SkillListSchema = z.array(SkillSchema);

/** `client.skills`: reusable instructions (section 4.1). */
export class Skills extends Resource {
  /** Skills visible to the credential, page by page; `for await` over it to read every one. */
  list(query: PageQuery = {}, options?: RequestOptions): PagePromise<Skill> {
    return this.api.list('skills', SkillListSchema, 'repeatable', options, [SkillListQuerySchema, query]);
  }

  /** Creates a skill (checked against every rule of 4.1 before sending). */
  create(body: SkillCreate, options?: RequestOptions): ApiPromise<Skill> {
    return this.api.post('skills', SkillSchema, 'write', options, [SkillCreateSchema, body]);
  }

  /** One skill. */
  get(skillId: number, options?: RequestOptions): ApiPromise<Skill> {
    return this.api.get(skillAt(skillId), SkillSchema, 'repeatable', options);
  }

  /** Updates the fields sent; `level` cannot change. */
  update(skillId: number, body: SkillUpdate, options?: RequestOptions): ApiPromise<Skill> {
    return this.api.patch(skillAt(skillId), SkillSchema, 'repeatable', options, [SkillUpdateSchema, body]);
  }

  /** Flips `is_active` and returns the skill. Not repeated on a lost response: a second flip undoes the first. */
  toggle(skillId: number, options?: RequestOptions): ApiPromise<Skill> {
    return this.api.patch(skillAt(skillId, '/toggle'), SkillSchema, 'write', options);
  }

  /** Deletes a skill (softly); returns `{ id }`. */
  delete(skillId: number, options?: RequestOptions): ApiPromise<SkillDeleted> {
    return this.api.delete(skillAt(skillId), SkillDeletedSchema, 'write', options);
  }
}

/** The path of a skill (and `rest` below it), its id checked when the call runs. */
function skillAt(skillId: number, rest = ''): () => string {
  return () => `skills/${checkInput(IntId, skillId, 'skill_id')}${rest}`;
}
