import { SkillDeletedSchema, SkillSchema } from '../../contract/skill.js';
import { type Context, expectStatus } from '../context.js';
import { expectThat, show } from '../verdict.js';
import type { Answer } from '../wire.js';
import type { Check } from './check.js';

/** `data` parsed as a skill, or a failure naming what did not match. */
export function skillOf(answer: Answer) {
  const parsed = SkillSchema.safeParse(answer.data);
  expectThat(parsed.success, 'data matching the skill of 2.2', () => show(answer.data), answer);
  return parsed.data;
}

async function createSkill(ctx: Context) {
  const name = ctx.name('skill');
  const answer = await ctx.wire.call('POST', '/api/v1/skills', {
    token: ctx.tokens.main,
    body: { name, instructions: 'Answer briefly.' },
  });
  ctx.created('skill', answer, name);
  const skill = skillOf(answer);
  return { skill, answer, name };
}

/** Sections 4.1 and 3.1: the skills resource. */
export const SKILL_CHECKS: Check[] = [
  {
    section: '4.1',
    title: 'a skill is created (201, defaults personal and public), read, updated and listed',
    async run(ctx) {
      const { skill, answer, name } = await createSkill(ctx);
      expectThat(
        skill.name === name && skill.level === 'personal' && skill.visibility === 'public',
        `name ${show(name)}, level "personal", visibility "public"`,
        () => show({ name: skill.name, level: skill.level, visibility: skill.visibility }),
        answer,
      );
      const read = await ctx.wire.call('GET', `/api/v1/skills/${skill.id}`, { token: ctx.tokens.main });
      expectStatus(read, 200);
      expectThat(skillOf(read).id === skill.id, `skill ${skill.id}`, () => show(read.data), read);
      const renamed = `${name} renamed`;
      const patched = await ctx.wire.call('PATCH', `/api/v1/skills/${skill.id}`, {
        token: ctx.tokens.main,
        body: { name: renamed },
      });
      expectStatus(patched, 200);
      const updated = skillOf(patched);
      expectThat(
        updated.name === renamed && updated.level === skill.level,
        `name ${show(renamed)}, level unchanged`,
        () => show({ name: updated.name, level: updated.level }),
        patched,
      );
      const list = await ctx.wire.call('GET', '/api/v1/skills?size=200', {
        token: ctx.tokens.main,
        list: true,
      });
      expectStatus(list, 200);
      const ids = Array.isArray(list.data) ? list.data.map((item: { id?: unknown } | null) => item?.id) : [];
      expectThat(ids.includes(skill.id), `skill ${skill.id} in the listing`, () => show(ids), list);
    },
  },
  {
    section: '3.1',
    title:
      'toggle flips is_active and returns the skill; delete is soft: { id }, then 404 and gone from the list',
    async run(ctx) {
      const { skill } = await createSkill(ctx);
      let active = skill.is_active;
      for (let flip = 0; flip < 2; flip++) {
        const toggled = await ctx.wire.call('PATCH', `/api/v1/skills/${skill.id}/toggle`, {
          token: ctx.tokens.main,
        });
        expectStatus(toggled, 200);
        const now = skillOf(toggled).is_active;
        expectThat(now === !active, `is_active ${!active}`, () => `is_active ${now}`, toggled);
        active = now;
      }
      const deleted = await ctx.wire.call('DELETE', `/api/v1/skills/${skill.id}`, { token: ctx.tokens.main });
      expectStatus(deleted, 200);
      ctx.skills.delete(skill.id);
      const data = SkillDeletedSchema.safeParse(deleted.data);
      expectThat(
        data.success && data.data.id === skill.id,
        `data { id: ${skill.id} }`,
        () => show(deleted.data),
        deleted,
      );
      const read = await ctx.wire.call('GET', `/api/v1/skills/${skill.id}`, { token: ctx.tokens.main });
      expectStatus(read, 404, 'api_v1_not_found');
      const list = await ctx.wire.call('GET', '/api/v1/skills?size=200', {
        token: ctx.tokens.main,
        list: true,
      });
      expectStatus(list, 200);
      const ids = Array.isArray(list.data) ? list.data.map((item: { id?: unknown } | null) => item?.id) : [];
      expectThat(!ids.includes(skill.id), `no skill ${skill.id} in the listing`, () => show(ids), list);
    },
  },
];
