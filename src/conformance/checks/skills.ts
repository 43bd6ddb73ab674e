import { LIMITS } from '../../contract/limits.js';
import { SkillDeletedSchema, SkillSchema } from '../../contract/skill.js';
import { type Context, expectStatus } from '../context.js';
import { expectThat, show } from '../verdict.js';
import type { Answer } from '../wire.js';
import type { Check } from './check.js';
import { expectUtc } from './fields.js';
import { byId, findListed } from './lists.js';

/** `data` parsed as a skill, or a failure naming what did not match. */
function skillOf(answer: Answer) {
  const parsed = SkillSchema.safeParse(answer.data);
  expectThat(parsed.success, 'data matching the skill of 2.2', () => show(answer.data), answer);
  return parsed.data;
}

/** Creates a skill named with the run's prefix (then `what`); fails unless the answer is that new skill. */
export async function createSkill(ctx: Context, what = 'skill') {
  const name = ctx.name(what);
  const answer = await ctx.wire.call('POST', '/api/v1/skills', {
    token: ctx.tokens.main,
    body: { name, instructions: 'Answer briefly.' },
  });
  const id = await ctx.created('skill', answer, name);
  return { skill: { ...skillOf(answer), id }, answer, name };
}

/** Sends a skill creation the contract refuses; a skill it saved anyway is the run's to delete. */
export async function refusedSkill(
  ctx: Context,
  body: { name: string; instructions: string } & Record<string, unknown>,
  token = ctx.tokens.main,
): Promise<Answer> {
  const { name } = body;
  const answer = await ctx.wire.call('POST', '/api/v1/skills', { token, body });
  const id = (answer.data as { id?: unknown } | undefined)?.id;
  if (answer.status >= 200 && answer.status <= 299 && Number.isSafeInteger(id) && (id as number) > 0) {
    await ctx.created('skill', answer, name);
  }
  return answer;
}

/** Sections 4.1, 3.1 and 7.2: the skills resource. */
export const SKILL_CHECKS: Check[] = [
  {
    section: '4.1',
    title:
      'a skill is created (201, defaults personal and public, timestamps in UTC), read by id, updated and listed',
    quote: 'create; answers 201 with the skill',
    async run(ctx) {
      const { skill, answer, name } = await createSkill(ctx);
      expectThat(
        skill.level === 'personal' && skill.visibility === 'public',
        'level "personal", visibility "public" by default (2.2)',
        () => show({ level: skill.level, visibility: skill.visibility }),
        answer,
      );
      expectUtc(answer, answer.data as Record<string, unknown>, ['created_at']);
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
      // 4.1 fixes neither the order of the list nor how many skills a credential sees: page through it.
      const listed = await findListed(ctx, '/api/v1/skills', byId(skill.id));
      expectThat(
        listed.item !== undefined,
        `skill ${skill.id} in the listing`,
        () => 'not listed',
        listed.answer,
      );
    },
  },
  {
    section: '4.1',
    title: "a skill's level is not editable: an update naming it is refused or leaves it as it was",
    quote: '`level` is not editable.',
    async run(ctx) {
      const { skill } = await createSkill(ctx);
      const patched = await ctx.wire.call('PATCH', `/api/v1/skills/${skill.id}`, {
        token: ctx.tokens.main,
        body: { level: 'company' },
      });
      if (patched.status >= 400 && patched.status <= 499) return;
      expectStatus(patched, 200);
      const read = await ctx.wire.call('GET', `/api/v1/skills/${skill.id}`, { token: ctx.tokens.main });
      expectStatus(read, 200);
      expectThat(
        skillOf(read).level === skill.level,
        `level still ${show(skill.level)} ("level is not editable")`,
        () => `level ${show(skillOf(read).level)}`,
        read,
      );
    },
  },
  {
    section: '3.1',
    title: 'toggle flips is_active and returns the skill; delete answers { id }',
    quote: 'returns `{ id }`',
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
      // What a soft-deleted skill then answers, the spec does not say (2.2: "A skill is deleted softly."):
      // the report lists it as not checked.
    },
  },
  {
    section: '7.2',
    title:
      'instructions citing a resource that does not exist are 422 prompt_refs_invalid, and nothing is saved',
    quote: '`data[0]` groups them by category; nothing is saved',
    exercises: ['skills.create 422 prompt_refs_invalid'],
    async run(ctx) {
      const name = ctx.name('bad refs');
      const answer = await refusedSkill(ctx, {
        name,
        instructions: 'Use {{skill:2147483000}} and {{file:2147483000}}.',
      });
      expectStatus(answer, 422, 'prompt_refs_invalid');
      const listed = await findListed(ctx, '/api/v1/skills', (item) => item.name === name);
      expectThat(
        listed.item === undefined,
        `no skill named ${show(name)} saved`,
        () => show(listed.item),
        listed.answer,
      );
    },
  },
  {
    section: '7.2',
    title: `instructions over ${LIMITS.skillInstructions.toLocaleString('en')} characters are 422 prompt_text_too_long`,
    quote: '`instructions` exceeds 12,000 characters',
    exercises: ['skills.create 422 prompt_text_too_long'],
    async run(ctx) {
      const answer = await refusedSkill(ctx, {
        name: ctx.name('long'),
        instructions: 'a'.repeat(LIMITS.skillInstructions + 1),
      });
      expectStatus(answer, 422, 'prompt_text_too_long');
    },
  },
  {
    section: '7.2',
    title: `an update with instructions citing a resource that does not exist is 422 prompt_refs_invalid and saves nothing; over ${LIMITS.skillInstructions.toLocaleString('en')} characters, 422 prompt_text_too_long`,
    quote: 'Skills (create and update)',
    exercises: ['skills.update 422 prompt_refs_invalid', 'skills.update 422 prompt_text_too_long'],
    async run(ctx) {
      const { skill } = await createSkill(ctx, 'updated badly');
      const path = `/api/v1/skills/${skill.id}`;
      const refs = await ctx.wire.call('PATCH', path, {
        token: ctx.tokens.main,
        body: { name: ctx.name('renamed badly'), instructions: 'Use {{skill:2147483000}}.' },
      });
      expectStatus(refs, 422, 'prompt_refs_invalid');
      const long = await ctx.wire.call('PATCH', path, {
        token: ctx.tokens.main,
        body: { instructions: 'a'.repeat(LIMITS.skillInstructions + 1) },
      });
      expectStatus(long, 422, 'prompt_text_too_long');
      const read = await ctx.wire.call('GET', path, { token: ctx.tokens.main });
      expectStatus(read, 200);
      const now = skillOf(read);
      expectThat(
        now.name === skill.name && now.instructions === skill.instructions,
        `skill ${skill.id} unchanged: "nothing is saved"`,
        () => show({ name: now.name, instructions: now.instructions.slice(0, 100) }),
        read,
      );
    },
  },
];
