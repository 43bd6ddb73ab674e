import type { PageQuery } from '../contract/page.js';
import type { Skill, SkillCreate, SkillDeleted, SkillUpdate } from '../contract/skill.js';
import type { ApiPromise } from '../http/api-promise.js';
import type { PagePromise } from '../http/page.js';
import type { RequestOptions } from '../http/transport.js';
import { Resource } from './resource.js';

/** `client.skills`: reusable instructions (section 4.1). */
export class Skills extends Resource {
  /** Skills visible to the credential, page by page; `for await` over it to read every one. */
  list(query: PageQuery = {}, options?: RequestOptions): PagePromise<Skill> {
    return this.api.list('skills.list', {}, query, options);
  }

  /** Creates a skill (checked against every rule of 4.1 before sending). */
  create(body: SkillCreate, options?: RequestOptions): ApiPromise<Skill> {
    return this.api.call('skills.create', {}, options, body);
  }

  /** One skill. */
  get(skillId: number, options?: RequestOptions): ApiPromise<Skill> {
    return this.api.call('skills.get', { skill_id: skillId }, options);
  }

  /** Updates the fields sent; `level` cannot change. */
  update(skillId: number, body: SkillUpdate, options?: RequestOptions): ApiPromise<Skill> {
    return this.api.call('skills.update', { skill_id: skillId }, options, body);
  }

  /** Flips `is_active` and returns the skill. Not repeated on a lost response: a second flip undoes the first. */
  toggle(skillId: number, options?: RequestOptions): ApiPromise<Skill> {
    return this.api.call('skills.toggle', { skill_id: skillId }, options);
  }

  /** Deletes a skill (softly); returns `{ id }`. */
  delete(skillId: number, options?: RequestOptions): ApiPromise<SkillDeleted> {
    return this.api.call('skills.delete', { skill_id: skillId }, options);
  }
}
