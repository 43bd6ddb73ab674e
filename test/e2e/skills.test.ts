import { expect } from 'vitest';
import { apiError } from '../support/api-error.js';
import { type Case, expectRefused, needsInProcessMock, runOnTargets } from './run-targets.js';
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
    '7 an error carries its HTTP status and message_code',
    async (t) => {
      const reply = await t.raw('/api/v1/skills/999999');
      expect([reply.status, reply.body.message_code]).toEqual([404, 'api_v1_not_found']);
    },
  ],
  [
    'reading: an error body is { status: error, message, message_code, data (null when empty), meta.request_id }',
    async (t) => {
      const reply = await t.raw('/api/v1/skills/999999');
      expect(reply.body).toMatchObject({ status: 'error', message_code: 'api_v1_not_found', data: null });
      expect(typeof reply.body.message).toBe('string');
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
    '3.1 level never changes: an update that sends level leaves it as it was',
    async (t) => {
      const created = await newSkill(t);
      await t.raw(`/api/v1/skills/${created.id}`, { method: 'PATCH', body: { level: 'company' } });
      expect((await t.client().skills.get(created.id)).level).toBe('personal');
    },
  ],
  [
    'reading: an update that sends level is refused with 422 rather than ignored',
    async (t) => {
      const created = await newSkill(t);
      const reply = await t.raw(`/api/v1/skills/${created.id}`, {
        method: 'PATCH',
        body: { level: 'company' },
      });
      expect([reply.status, reply.body.message_code]).toEqual([422, 'api_v1_validation_error']);
      expect(reply.body.data).toEqual([expect.objectContaining({ field: 'level' })]);
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
    '2.2 shared_user_ids is accepted on write',
    async (t) => {
      const created = await newSkill(t, { visibility: 'shared', shared_user_ids: [2] });
      expect(created.visibility).toBe('shared');
    },
  ],
  [
    'reading: shared_user_ids is not shown in responses',
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
    '4.1 workspace_id is optional with level workspace (create table: required "no"): the client sends it, 201',
    async (t) => {
      const created = await newSkill(t, { level: 'workspace' });
      expect(created.level).toBe('workspace');
    },
  ],
  [
    'reading: skills belong to the user: another credential of the same user sees a private one',
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
    '7.2 a reference to a resource that exists and is usable is accepted',
    async (t) => {
      const instructions = 'Use {{library:1}}.';
      expect((await newSkill(t, { instructions })).instructions).toBe(instructions);
    },
  ],
  [
    'reading: the reference types are library, file, connector, tool (tool 1 is github search) and skill',
    async (t) => {
      const cited = await newSkill(t);
      const instructions = `Use {{library:1}}, {{file:11}}, {{connector:1}}, {{tool:1}} and {{skill:${cited.id}}}.`;
      expect((await newSkill(t, { instructions })).instructions).toBe(instructions);
    },
  ],
  [
    '7.2 references to missing resources -> 422 prompt_refs_invalid with data[0]; nothing saved',
    async (t) => {
      const before = await ids(t, 'full');
      const error = await apiError(newSkill(t, { instructions: 'See {{library:99}}.' }));
      expect([error.status, error.code]).toEqual([422, 'prompt_refs_invalid']);
      if (!error.is('prompt_refs_invalid')) throw error;
      expect(error.data[0]).toBeTypeOf('object');
      expect(await ids(t, 'full')).toEqual(before);
    },
  ],
  [
    'reading: data[0] of prompt_refs_invalid maps each type as written to its invalid ids, in order',
    async (t) => {
      const error = await apiError(
        newSkill(t, { instructions: 'See {{library:99}}, {{file:12345}}, {{widget:1}}, {{library:98}}.' }),
      );
      if (!error.is('prompt_refs_invalid')) throw error;
      expect(error.data).toEqual([{ library: [99, 98], file: [12345], widget: [1] }]);
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
      const error = await apiError(t.client().skills.update(created.id, { instructions: '{{library:99}}' }));
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
        const reply = await t.raw('/api/v1/skills', { method: 'POST', body: past });
        expectRefused(reply.status);
      }
    },
  ],
  [
    'reading: a name or description past its limit is 422 api_v1_validation_error naming the field',
    async (t) => {
      for (const [field, body] of [
        ['name', { name: 'n'.repeat(256), instructions: 'i' }],
        ['description', { name: 'n', instructions: 'i', description: 'd'.repeat(501) }],
      ] as const) {
        const reply = await t.raw('/api/v1/skills', { method: 'POST', body });
        expect([reply.status, reply.body.message_code]).toEqual([422, 'api_v1_validation_error']);
        expect(reply.body.data).toEqual([expect.objectContaining({ field })]);
      }
    },
  ],
  [
    'reading: characters are Unicode code points: 255 emoji are a valid name',
    async (t) => {
      const created = await newSkill(t, { name: '😀'.repeat(255) });
      expect(created.name).toBe('😀'.repeat(255));
    },
  ],
  [
    '8 a page size of 200 is served; over 200 is refused or capped at 200',
    async (t) => {
      const max = await t.raw('/api/v1/skills?size=200');
      expect([max.status, max.body.meta.size]).toEqual([200, 200]);
      const over = await t.raw('/api/v1/skills?size=201');
      if (over.status === 200) expect(over.body.meta.size).toBeLessThanOrEqual(200);
      else expectRefused(over.status);
    },
  ],
  [
    'reading: a page size over 200 or a page below 1 is refused with 422 api_v1_validation_error',
    async (t) => {
      for (const query of ['size=201', 'size=0', 'page=0', 'page=x']) {
        const reply = await t.raw(`/api/v1/skills?${query}`);
        expect([query, reply.status, reply.body.message_code]).toEqual([
          query,
          422,
          'api_v1_validation_error',
        ]);
      }
    },
  ],
  [
    'reading: a page beyond the end is an empty page with the real total',
    async (t) => {
      await newSkill(t);
      const reply = await t.raw('/api/v1/skills?page=1000&size=200');
      expect(reply.status).toBe(200);
      expect(reply.body.data).toEqual([]);
      expect(reply.body.meta).toMatchObject({ page: 1000, size: 200 });
      expect(reply.body.meta.total).toBeGreaterThan(0);
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
    'reading: no token and an unknown token answer the same 401 api_v1_unauthorized',
    async (t) => {
      const none = await t.raw('/api/v1/skills', { token: null });
      const unknown = await t.raw('/api/v1/skills', { token: 'nobody' });
      for (const reply of [none, unknown]) {
        expect([reply.status, reply.body.message_code]).toEqual([401, 'api_v1_unauthorized']);
      }
      expect(none.body.message).toBe(unknown.body.message);
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
    'conventions: a CORS preflight from another origin is answered without a credential, allowing Authorization',
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
      expect(reply.headers.get('access-control-allow-methods')).toMatch(/\*|PATCH/);
    },
  ],
];

runOnTargets('skills', cases);
