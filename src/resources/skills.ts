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
    return this.paginate(() => 'skills', SkillListQuerySchema, SkillListSchema, query, options);
  }

  /** Creates a skill (checked against every rule of 4.1 before sending). */
  create(body: SkillCreate, options?: RequestOptions): ApiPromise<Skill> {
    return this.call(async () => {
      checkInput(SkillCreateSchema, body);
      return this.transport.request({
        method: 'POST',
        path: 'skills',
        body,
        schema: SkillSchema,
        kind: 'write',
        options,
      });
    });
  }

  /** One skill. */
  get(skillId: number, options?: RequestOptions): ApiPromise<Skill> {
    return this.call(async () => {
      return this.transport.request({
        method: 'GET',
        path: `skills/${skillPath(skillId)}`,
        schema: SkillSchema,
        kind: 'read',
        options,
      });
    });
  }

  /** Updates the fields sent; `level` cannot change. */
  update(skillId: number, body: SkillUpdate, options?: RequestOptions): ApiPromise<Skill> {
    return this.call(async () => {
      const path = `skills/${skillPath(skillId)}`;
      checkInput(SkillUpdateSchema, body);
      return this.transport.request({
        method: 'PATCH',
        path,
        body,
        schema: SkillSchema,
        kind: 'read',
        options,
      });
    });
  }

  /** Flips `is_active` and returns the skill. Not repeated on a lost response: a second flip undoes the first. */
  toggle(skillId: number, options?: RequestOptions): ApiPromise<Skill> {
    return this.call(async () => {
      return this.transport.request({
        method: 'PATCH',
        path: `skills/${skillPath(skillId)}/toggle`,
        schema: SkillSchema,
        kind: 'write',
        options,
      });
    });
  }

  /** Deletes a skill (softly); returns `{ id }`. */
  delete(skillId: number, options?: RequestOptions): ApiPromise<SkillDeleted> {
    return this.call(async () => {
      return this.transport.request({
        method: 'DELETE',
        path: `skills/${skillPath(skillId)}`,
        schema: SkillDeletedSchema,
        kind: 'write',
        options,
      });
    });
  }
}

function skillPath(skillId: number): number {
  return checkInput(IntId, skillId, 'skill_id');
}
