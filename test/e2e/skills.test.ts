import { expect } from 'vitest';
import { apiError } from '../support/api-error.js';
import { type Case, needsInProcessMock, runOnTargets } from './run-targets.js';
import type { Target } from './targets.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

let counter = 0;
/** A skill with a name unique to this run, so cases never depend on each other's state. */
function newSkill(
  target: Target,
  extra: Record<string, unknown> = {},
  who: Parameters<Target['client']>[0] = 'full',
) {
  counter++;
  return target.client(who).skills.create({ name: `Skill ${counter}`, instructions: 'Be brief.', ...extra });
}

async function ids(target: Target, who: Parameters<Target['client']>[0]): Promise<number[]> {
  const seen: number[] = [];
  for await (const skill of target.client(who).skills.list({ size: 200 })) seen.push(skill.id);
  return seen;
}

const cases: Case[] = [
  [
    '4.1 create answers 201 with the skill: defaults personal, public, active, workspace_id null',
    async (t) => {
      const reply = await t.raw('/api/v1/skills', {
        method: 'POST',
        body: { name: 'Tone', instructions: 'Be brief.' },
      });
      expect(reply.status).toBe(201);
      expect(reply.body.data).toMatchObject({
        name: 'Tone',
        instructions: 'Be brief.',
        level: 'personal',
        visibility: 'public',
        workspace_id: null,
        is_active: true,
      });
      expect(Number.isInteger(reply.body.data.id)).toBe(true);
      expect(Number.isNaN(Date.parse(reply.body.data.created_at))).toBe(false);
    },
  ],
  [
    '2.1 a success carries status success, message, message_code api_v1_ok and a uuid meta.request_id',
    async (t) => {
      const reply = await t.raw('/api/v1/skills');
      expect(reply.body).toMatchObject({ status: 'success', message_code: 'api_v1_ok' });
      expect(typeof reply.body.message).toBe('string');
      expect(reply.body.meta.request_id).toMatch(UUID);
    },
  ],
  [
    '2.1 a list carries meta.page, meta.size and meta.total; size defaults to 50',
    async (t) => {
      const reply = await t.raw('/api/v1/skills');
      expect(reply.body.meta).toMatchObject({ page: 1, size: 50 });
      expect(Number.isInteger(reply.body.meta.total)).toBe(true);
    },
  ],
  [
    '7 an error body is { status: error, message, message_code, data, meta.request_id }',
    async (t) => {
      const reply = await t.raw('/api/v1/skills/999999');
      expect(reply.status).toBe(404);
      expect(reply.body).toMatchObject({ status: 'error', message_code: 'api_v1_not_found' });
      expect(typeof reply.body.message).toBe('string');
      expect('data' in reply.body).toBe(true);
      expect(reply.body.meta.request_id).toMatch(UUID);
    },
  ],
  [
    '4.1 get returns the skill that create returned',
    async (t) => {
      const created = await newSkill(t, { description: 'Short answers', icon: 'pen' });
      expect(await t.client().skills.get(created.id)).toEqual(created);
    },
  ],
  [
    '3.1 a new skill is active; toggle flips is_active and returns the skill, and flips it back',
    async (t) => {
      const created = await newSkill(t);
      expect(created.is_active).toBe(true);
      const off = await t.client().skills.toggle(created.id);
      expect(off).toMatchObject({ id: created.id, is_active: false });
      expect((await t.client().skills.get(created.id)).is_active).toBe(false);
      expect((await t.client().skills.toggle(created.id)).is_active).toBe(true);
    },
  ],
  [
    '4.1 update changes only the fields sent and returns the skill',
    async (t) => {
      const created = await newSkill(t, { description: 'before' });
      const updated = await t.client().skills.update(created.id, { description: 'after' });
      expect(updated).toEqual({ ...created, description: 'after' });
    },
  ],
  [
    '3.1 level never changes: an update that sends level is refused and changes nothing',
    async (t) => {
      const created = await newSkill(t);
      const reply = await t.raw(`/api/v1/skills/${created.id}`, {
        method: 'PATCH',
        body: { level: 'company' },
      });
      expect(reply.status).toBe(422);
      expect((await t.client().skills.get(created.id)).level).toBe('personal');
    },
  ],
  [
    '3.1 delete is soft: it returns { id }, then get is 404 and the list omits it',
    async (t) => {
      const created = await newSkill(t);
      expect(await t.client().skills.delete(created.id)).toEqual({ id: created.id });
      expect((await apiError(t.client().skills.get(created.id))).code).toBe('api_v1_not_found');
      expect(await ids(t, 'full')).not.toContain(created.id);
      expect((await apiError(t.client().skills.delete(created.id))).status).toBe(404);
    },
  ],
  [
    '4 lists page with page and size: every skill once, in pages of the size asked',
    async (t) => {
      for (let i = 0; i < 3; i++) await newSkill(t);
      const first = await t.client().skills.list({ size: 2 });
      expect(first.items.length).toBe(2);
      expect(first.size).toBe(2);
      const all = await ids(t, 'full');
      expect(all.length).toBe(first.total);
      expect(new Set(all).size).toBe(all.length);
      const second = await first.nextPage();
      expect(second.page).toBe(2);
      expect(second.items.map((s) => s.id)).toEqual(all.slice(2, 4));
    },
  ],
  [
    '2.2 shared_user_ids is accepted on write and not shown in responses',
    async (t) => {
      const created = await newSkill(t, { visibility: 'shared', shared_user_ids: [2] });
      expect(created).not.toHaveProperty('shared_user_ids');
      expect(await t.client().skills.get(created.id)).not.toHaveProperty('shared_user_ids');
    },
  ],
  [
    '2.2 a workspace skill keeps its workspace_id',
    async (t) => {
      const created = await newSkill(t, { level: 'workspace', workspace_id: 1 });
      expect(created).toMatchObject({ level: 'workspace', workspace_id: 1 });
    },
  ],
  [
    '2.2 visible: a skill is visible to another credential of the same user (its own)',
    async (t) => {
      const created = await newSkill(t, { visibility: 'private' });
      expect((await t.client('fullSameUser').skills.get(created.id)).id).toBe(created.id);
    },
  ],
  [
    "2.2 visible: a company skill is visible to a coworker and not to another company's user",
    async (t) => {
      const created = await newSkill(t, { level: 'company' });
      expect(await ids(t, 'coworker')).toContain(created.id);
      expect((await apiError(t.client('otherCompany').skills.get(created.id))).status).toBe(404);
    },
  ],
  [
    '2.2 visible: a shared skill is visible to the users it is shared with, only',
    async (t) => {
      const created = await newSkill(t, { visibility: 'shared', shared_user_ids: [2] });
      expect((await t.client('coworker').skills.get(created.id)).id).toBe(created.id);
      const other = await newSkill(t, { visibility: 'shared', shared_user_ids: [3] });
      expect((await apiError(t.client('coworker').skills.get(other.id))).status).toBe(404);
    },
  ],
  [
    "7.1 another user's personal skill is 404 api_v1_not_found on read and write, the same as a missing one",
    async (t) => {
      const created = await newSkill(t, { visibility: 'private' });
      const coworker = t.client('coworker').skills;
      for (const attempt of [
        () => coworker.get(created.id),
        () => coworker.update(created.id, { name: 'x' }),
        () => coworker.toggle(created.id),
        () => coworker.delete(created.id),
      ]) {
        const error = await apiError(attempt());
        expect([error.status, error.code]).toEqual([404, 'api_v1_not_found']);
      }
      const missing = await t.raw('/api/v1/skills/987654', { token: 'coworker' });
      const hidden = await t.raw(`/api/v1/skills/${created.id}`, { token: 'coworker' });
      expect([hidden.status, hidden.body.message_code, hidden.body.message]).toEqual([
        missing.status,
        missing.body.message_code,
        missing.body.message,
      ]);
      expect(await t.client().skills.get(created.id)).toEqual(created);
    },
  ],
  [
    '7.2 workspace_id outside the scope -> 403 api_v1_resource_not_allowed',
    async (t) => {
      const error = await apiError(newSkill(t, { level: 'workspace', workspace_id: 1 }, 'otherCompany'));
      expect([error.status, error.code]).toEqual([403, 'api_v1_resource_not_allowed']);
    },
  ],
  [
    '7.2 a shared_user_ids entry outside the company -> 403 api_v1_resource_not_allowed',
    async (t) => {
      const error = await apiError(newSkill(t, { visibility: 'shared', shared_user_ids: [4] }));
      expect([error.status, error.code]).toEqual([403, 'api_v1_resource_not_allowed']);
    },
  ],
  [
    '7.2 the allowlist forbids creating -> 403 api_v1_resource_policy_create_denied',
    async (t, context) => {
      needsInProcessMock(t, context);
      const error = await apiError(newSkill(t, {}, 'allowlisted'));
      expect([error.status, error.code]).toEqual([403, 'api_v1_resource_policy_create_denied']);
    },
  ],
  [
    '7.2 references to resources that exist and are usable are accepted',
    async (t) => {
      const cited = await newSkill(t);
      const instructions = `Use {{library:1}}, {{file:11}}, {{connector:1}}, {{tool:1}} and {{skill:${cited.id}}}.`;
      expect((await newSkill(t, { instructions })).instructions).toBe(instructions);
    },
  ],
  [
    '7.2 references to missing resources -> 422 prompt_refs_invalid grouped in data[0]; nothing saved',
    async (t) => {
      const before = await ids(t, 'full');
      const error = await apiError(newSkill(t, { instructions: 'See {{library:99}} and {{file:12345}}.' }));
      expect([error.status, error.code]).toEqual([422, 'prompt_refs_invalid']);
      if (!error.is('prompt_refs_invalid')) throw error;
      const groups = error.data[0];
      expect(JSON.stringify(groups)).toContain('99');
      expect(JSON.stringify(groups)).toContain('12345');
      expect(await ids(t, 'full')).toEqual(before);
    },
  ],
  [
    '7.2 a reference the user cannot use -> 422 prompt_refs_invalid',
    async (t) => {
      const error = await apiError(newSkill(t, { instructions: 'See {{library:1}}.' }, 'otherCompany'));
      expect(error.code).toBe('prompt_refs_invalid');
    },
  ],
  [
    '4.1 changed instructions have their references revalidated; a refused update changes nothing',
    async (t) => {
      const created = await newSkill(t);
      const error = await apiError(
        t.client().skills.update(created.id, { instructions: '{{skill:987654}}' }),
      );
      expect(error.code).toBe('prompt_refs_invalid');
      expect((await t.client().skills.get(created.id)).instructions).toBe(created.instructions);
    },
  ],
  [
    '7.2 instructions over 12,000 characters -> 422 prompt_text_too_long, on create and update',
    async (t) => {
      const long = 'i'.repeat(12_001);
      const create = await t.raw('/api/v1/skills', {
        method: 'POST',
        body: { name: 'n', instructions: long },
      });
      expect([create.status, create.body.message_code]).toEqual([422, 'prompt_text_too_long']);
      const created = await newSkill(t);
      const update = await t.raw(`/api/v1/skills/${created.id}`, {
        method: 'PATCH',
        body: { instructions: long },
      });
      expect([update.status, update.body.message_code]).toEqual([422, 'prompt_text_too_long']);
    },
  ],
  [
    '8 limits at their bound pass and one past fail: name 255, description 500, instructions 12,000',
    async (t) => {
      const atBound = {
        name: 'n'.repeat(255),
        description: 'd'.repeat(500),
        instructions: 'i'.repeat(12_000),
      };
      expect((await t.raw('/api/v1/skills', { method: 'POST', body: atBound })).status).toBe(201);
      for (const past of [
        { ...atBound, name: 'n'.repeat(256) },
        { ...atBound, description: 'd'.repeat(501) },
      ]) {
        expect((await t.raw('/api/v1/skills', { method: 'POST', body: past })).status).toBe(422);
      }
    },
  ],
  [
    '8 characters are code points in the mock too: 255 emoji are a valid name',
    async (t) => {
      const created = await newSkill(t, { name: '😀'.repeat(255) });
      expect(created.name).toBe('😀'.repeat(255));
    },
  ],
  [
    '8 page size over 200 or page 0 is refused',
    async (t) => {
      expect((await t.raw('/api/v1/skills?size=201')).status).toBe(422);
      expect((await t.raw('/api/v1/skills?page=0')).status).toBe(422);
      expect((await t.raw('/api/v1/skills?size=200')).status).toBe(200);
    },
  ],
  [
    '5 no Authorization header -> 401',
    async (t) => {
      expect((await t.raw('/api/v1/skills', { token: null })).status).toBe(401);
    },
  ],
  [
    '5 an unknown token -> 401',
    async (t) => {
      expect((await t.raw('/api/v1/skills', { token: 'nobody' })).status).toBe(401);
      expect((await apiError(t.client('full', { token: 'nobody' }).skills.list())).status).toBe(401);
    },
  ],
  [
    '5 writing with a read-only credential -> 403 api_token_scope_not_allowed with required_scopes',
    async (t) => {
      const error = await apiError(newSkill(t, {}, 'skillsRead'));
      expect([error.status, error.code]).toEqual([403, 'api_token_scope_not_allowed']);
      if (!error.is('api_token_scope_not_allowed')) throw error;
      expect(error.data.required_scopes).toEqual(['skills:write']);
    },
  ],
  [
    '5 reading without skills:read -> 403 with required_scopes [skills:read]',
    async (t) => {
      const error = await apiError(t.client('noScope').skills.list());
      if (!error.is('api_token_scope_not_allowed')) throw error;
      expect(error.data.required_scopes).toEqual(['skills:read']);
    },
  ],
  [
    '5 a read-only credential can read',
    async (t) => {
      const created = await newSkill(t, { level: 'company' });
      expect((await t.client('skillsRead').skills.get(created.id)).id).toBe(created.id);
    },
  ],
  [
    'CORS: a preflight from another origin is allowed with the Authorization header',
    async (t) => {
      const reply = await t.raw('/api/v1/skills', {
        method: 'OPTIONS',
        token: null,
        headers: {
          origin: 'http://page.test',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization,content-type',
        },
      });
      expect(reply.status).toBeLessThan(300);
      expect(reply.headers.get('access-control-allow-origin')).toMatch(/\*|http:\/\/page\.test/);
      expect(reply.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('authorization');
    },
  ],
];

runOnTargets('skills', cases);
