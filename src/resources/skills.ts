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
import type { PagePromise } from '../http/page.js';
import { outageNeverLeft, repeatable } from '../http/retry.js';
import type { RequestOptions } from '../http/transport.js';
import { checkInput } from '../validate.js';
import { Resource } from './resource.js';

const SkillListSchema = z.array(SkillSchema);

/** `client.skills`: reusable instructions (section 4.1). */
export class Skills extends Resource {
  /** Skills visible to the credential, page by page; `for await` over it to read every one. */
  list(query: PageQuery = {}, options?: RequestOptions): PagePromise<Skill> {
    checkInput(SkillListQuerySchema, query);
    return this.paginate('skills', SkillListSchema, query, options);
  }

  /** Creates a skill (checked against every rule of 4.1 before sending). */
  async create(body: SkillCreate, options?: RequestOptions): Promise<Skill> {
    checkInput(SkillCreateSchema, body);
    const { data } = await this.transport.request({
      method: 'POST',
      path: 'skills',
      body,
      schema: SkillSchema,
      retry: outageNeverLeft,
      options,
    });
    return data;
  }

  /** One skill. */
  async get(skillId: number, options?: RequestOptions): Promise<Skill> {
    const { data } = await this.transport.request({
      method: 'GET',
      path: `skills/${skillPath(skillId)}`,
      schema: SkillSchema,
      retry: repeatable,
      options,
    });
    return data;
  }

  /** Updates the fields sent; `level` cannot change. */
  async update(skillId: number, body: SkillUpdate, options?: RequestOptions): Promise<Skill> {
    const path = `skills/${skillPath(skillId)}`;
    checkInput(SkillUpdateSchema, body);
    const { data } = await this.transport.request({
      method: 'PATCH',
      path,
      body,
      schema: SkillSchema,
      retry: repeatable,
      options,
    });
    return data;
  }

  /** Flips `is_active` and returns the skill. Not repeated on a lost response: a second flip undoes the first. */
  async toggle(skillId: number, options?: RequestOptions): Promise<Skill> {
    const { data } = await this.transport.request({
      method: 'PATCH',
      path: `skills/${skillPath(skillId)}/toggle`,
      schema: SkillSchema,
      retry: outageNeverLeft,
      options,
    });
    return data;
  }

  /** Deletes a skill (softly); returns `{ id }`. */
  async delete(skillId: number, options?: RequestOptions): Promise<SkillDeleted> {
    const { data } = await this.transport.request({
      method: 'DELETE',
      path: `skills/${skillPath(skillId)}`,
      schema: SkillDeletedSchema,
      retry: outageNeverLeft,
      options,
    });
    return data;
  }
}

function skillPath(skillId: number): number {
  return checkInput(IntId, skillId, 'skill_id');
}
