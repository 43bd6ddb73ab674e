import { beforeEach, describe, expect, it } from 'vitest';
import { type ConvoMock, createMock } from '../../src/mock/index.js';
import { call, createSkill, errorDataOf, listedIds, outcome, skillOf, skillsOf, TOKENS } from './helpers.js';

let mock: ConvoMock;
let now: number;
beforeEach(() => {
  now = Date.parse('2026-01-02T03:04:05.000Z');
  mock = createMock({ tokens: TOKENS, clock: { now: () => now } });
});

describe('4.1 create', () => {
  it('4.1 create answers 201 with the skill and the defaults of 2.2', async () => {
    const reply = await call(mock, 'POST', '/api/v1/skills', {
      body: { name: 'Tone', instructions: 'Be brief.' },
    });
    expect(reply.status).toBe(201);
    expect(skillOf(reply)).toEqual({
      id: 1,
      name: 'Tone',
      description: '',
      instructions: 'Be brief.',
      icon: 'sparkles',
      level: 'personal',
      visibility: 'public',
      workspace_id: null,
      is_active: true,
      created_at: '2026-01-02T03:04:05.000Z',
    });
  });

  it('2.2 created_at comes from the injected clock; ids count from 1', async () => {
    const first = await createSkill(mock);
    now += 60_000;
    const second = await createSkill(mock);
    expect([first.id, second.id]).toEqual([1, 2]);
    expect(second.created_at).toBe('2026-01-02T03:05:05.000Z');
  });

  it('4.1 create keeps every field sent', async () => {
    const skill = await createSkill(mock, {
      description: 'Short answers',
      icon: 'pen',
      level: 'workspace',
      visibility: 'private',
      workspace_id: 2,
    });
    expect(skill).toMatchObject({
      description: 'Short answers',
      icon: 'pen',
      level: 'workspace',
      visibility: 'private',
      workspace_id: 2,
    });
  });

  it('2.2 workspace_id is null unless level is workspace', async () => {
    expect((await createSkill(mock, { workspace_id: 1 })).workspace_id).toBeNull();
  });

  it('4.1 workspace_id is optional with level workspace: 201, workspace_id null (2.2 "integer or null")', async () => {
    const reply = await call(mock, 'POST', '/api/v1/skills', {
      body: { name: 'n', instructions: 'i', level: 'workspace' },
    });
    expect(reply.status).toBe(201);
    expect(skillOf(reply)).toMatchObject({ level: 'workspace', workspace_id: null });
  });

  it('4.1 missing and mistyped fields -> 422 api_v1_validation_error with data [{ field, message }]', async () => {
    const reply = await call(mock, 'POST', '/api/v1/skills', {
      body: { instructions: 5, level: 'team', shared_user_ids: ['2'] },
    });
    expect(outcome(reply)).toEqual([422, 'api_v1_validation_error']);
    expect(reply.body.data).toEqual(
      expect.arrayContaining([
        { field: 'name', message: 'is required' },
        { field: 'instructions', message: 'must be a string' },
        { field: 'level', message: 'must be one of "personal", "company", "workspace"' },
        { field: 'shared_user_ids.0', message: 'must be an integer' },
      ]),
    );
  });

  it('4.1 a body that is not an object -> 422; an empty body reads as {} -> 422 naming the fields', async () => {
    const array = await call(mock, 'POST', '/api/v1/skills', { body: [] });
    expect(outcome(array)).toEqual([422, 'api_v1_validation_error']);
    const empty = await call(mock, 'POST', '/api/v1/skills', { body: '' });
    expect(empty.body.data).toEqual([
      { field: 'name', message: 'is required' },
      { field: 'instructions', message: 'is required' },
    ]);
  });
});

describe('8 limits', () => {
  it('8 limits at their bound pass: name 255, description 500, instructions 12,000 characters', async () => {
    const skill = await createSkill(mock, {
      name: 'n'.repeat(255),
      description: 'd'.repeat(500),
      instructions: 'i'.repeat(12_000),
    });
    expect(skill.instructions.length).toBe(12_000);
  });

  it('8 name over 255 or description over 500 -> 422 api_v1_validation_error with the limit', async () => {
    const name = await call(mock, 'POST', '/api/v1/skills', {
      body: { name: 'n'.repeat(256), instructions: 'i' },
    });
    expect(outcome(name)).toEqual([422, 'api_v1_validation_error']);
    expect(name.body.data).toEqual([
      { field: 'name', message: 'must be at most 255 characters', limit: 255 },
    ]);
    const description = await call(mock, 'POST', '/api/v1/skills', {
      body: { name: 'n', instructions: 'i', description: 'd'.repeat(501) },
    });
    expect(description.body.data).toEqual([
      { field: 'description', message: 'must be at most 500 characters', limit: 500 },
    ]);
  });

  it('8 characters are code points: 255 emoji are a valid name, 256 are not', async () => {
    expect((await createSkill(mock, { name: '😀'.repeat(255) })).name).toBe('😀'.repeat(255));
    const reply = await call(mock, 'POST', '/api/v1/skills', {
      body: { name: '😀'.repeat(256), instructions: 'i' },
    });
    expect(reply.status).toBe(422);
  });

  it('7.2 instructions over 12,000 characters -> 422 prompt_text_too_long', async () => {
    const reply = await call(mock, 'POST', '/api/v1/skills', {
      body: { name: 'n', instructions: 'i'.repeat(12_001) },
    });
    expect(outcome(reply)).toEqual([422, 'prompt_text_too_long']);
    expect(errorDataOf(reply)).toEqual([
      { field: 'instructions', message: 'must be at most 12000 characters', limit: 12_000 },
    ]);
    expect(mock.store.skills()).toEqual([]);
  });

  it('7.2 prompt_text_too_long wins over other validation errors of the same body', async () => {
    const reply = await call(mock, 'POST', '/api/v1/skills', {
      body: { name: 'n'.repeat(300), instructions: 'i'.repeat(12_001) },
    });
    expect(outcome(reply)).toEqual([422, 'prompt_text_too_long']);
  });

  it('7.2 instructions over 12,000 characters on update -> 422 prompt_text_too_long, nothing changed', async () => {
    const skill = await createSkill(mock);
    const reply = await call(mock, 'PATCH', `/api/v1/skills/${skill.id}`, {
      body: { instructions: 'i'.repeat(12_001) },
    });
    expect(outcome(reply)).toEqual([422, 'prompt_text_too_long']);
    expect(skillOf(await call(mock, 'GET', `/api/v1/skills/${skill.id}`))).toEqual(skill);
  });

  it('8 instructions count code points: 12,000 emoji pass', async () => {
    expect((await createSkill(mock, { instructions: '😀'.repeat(12_000) })).id).toBe(1);
  });
});

describe('4.1 list', () => {
  it('4.1 list returns the visible skills ascending by id, with meta.page, size (default 50) and total', async () => {
    for (let i = 0; i < 3; i++) await createSkill(mock, { name: `s${i}` });
    const reply = await call(mock, 'GET', '/api/v1/skills');
    expect(skillsOf(reply).map((skill) => skill.id)).toEqual([1, 2, 3]);
    expect(reply.body.meta).toMatchObject({ page: 1, size: 50, total: 3 });
  });

  it('4 page and size slice the list; a page past the end is empty', async () => {
    for (let i = 0; i < 5; i++) await createSkill(mock);
    const second = await call(mock, 'GET', '/api/v1/skills?page=2&size=2');
    expect(skillsOf(second).map((skill) => skill.id)).toEqual([3, 4]);
    expect(second.body.meta).toMatchObject({ page: 2, size: 2, total: 5 });
    const past = await call(mock, 'GET', '/api/v1/skills?page=9&size=2');
    expect(skillsOf(past)).toEqual([]);
    expect(past.body.meta).toMatchObject({ page: 9, size: 2, total: 5 });
  });

  it('8 size 200 is allowed; size 201, size 0, page 0 and non-integers -> 422 api_v1_validation_error', async () => {
    expect((await call(mock, 'GET', '/api/v1/skills?size=200')).status).toBe(200);
    const cases: Array<[string, { field: string; message: string; limit?: number }]> = [
      ['size=201', { field: 'size', message: 'must be an integer from 1 to 200', limit: 200 }],
      ['size=0', { field: 'size', message: 'must be an integer from 1 to 200', limit: 1 }],
      ['page=0', { field: 'page', message: 'must be an integer from 1', limit: 1 }],
      ['page=abc', { field: 'page', message: 'must be an integer from 1' }],
      ['size=1.5', { field: 'size', message: 'must be an integer from 1 to 200' }],
      ['page=', { field: 'page', message: 'must be an integer from 1' }],
    ];
    for (const [query, issue] of cases) {
      const reply = await call(mock, 'GET', `/api/v1/skills?${query}`);
      expect(outcome(reply), query).toEqual([422, 'api_v1_validation_error']);
      expect(reply.body.data, query).toEqual([issue]);
    }
  });

  it('2.2 shared_user_ids is accepted on write and never shown', async () => {
    const skill = await createSkill(mock, { visibility: 'shared', shared_user_ids: [2] });
    const replies = [
      await call(mock, 'GET', '/api/v1/skills'),
      await call(mock, 'GET', `/api/v1/skills/${skill.id}`),
      await call(mock, 'PATCH', `/api/v1/skills/${skill.id}`, { body: { shared_user_ids: [3] } }),
      await call(mock, 'PATCH', `/api/v1/skills/${skill.id}/toggle`),
    ];
    for (const reply of replies) expect(reply.text).not.toContain('shared_user_ids');
    expect(skill).not.toHaveProperty('shared_user_ids');
    expect(mock.store.skills()[0]?.shared_user_ids).toEqual([3]);
  });
});

describe('4.1 get, update, toggle, delete', () => {
  it('4.1 get returns what create returned', async () => {
    const skill = await createSkill(mock, { description: 'd' });
    expect(skillOf(await call(mock, 'GET', `/api/v1/skills/${skill.id}`))).toEqual(skill);
  });

  it('4.1 update changes only the fields sent and returns the skill', async () => {
    const skill = await createSkill(mock, { description: 'before' });
    const reply = await call(mock, 'PATCH', `/api/v1/skills/${skill.id}`, {
      body: { description: 'after', icon: 'pen', visibility: 'private' },
    });
    expect(reply.status).toBe(200);
    expect(skillOf(reply)).toEqual({ ...skill, description: 'after', icon: 'pen', visibility: 'private' });
  });

  it('4.1 an empty update changes nothing and returns the skill', async () => {
    const skill = await createSkill(mock);
    expect(skillOf(await call(mock, 'PATCH', `/api/v1/skills/${skill.id}`, { body: {} }))).toEqual(skill);
  });

  it('3.1 level is not editable: update with level -> 422 api_v1_validation_error, nothing changed', async () => {
    const skill = await createSkill(mock);
    for (const level of ['company', 'personal']) {
      const reply = await call(mock, 'PATCH', `/api/v1/skills/${skill.id}`, {
        body: { level, name: 'other' },
      });
      expect(outcome(reply)).toEqual([422, 'api_v1_validation_error']);
      expect(reply.body.data).toEqual([{ field: 'level', message: 'is fixed after creation' }]);
    }
    expect(skillOf(await call(mock, 'GET', `/api/v1/skills/${skill.id}`))).toEqual(skill);
  });

  it('4.1 update of a workspace skill moves it to another library', async () => {
    const skill = await createSkill(mock, { level: 'workspace', workspace_id: 1 });
    const reply = await call(mock, 'PATCH', `/api/v1/skills/${skill.id}`, { body: { workspace_id: 2 } });
    expect(skillOf(reply).workspace_id).toBe(2);
  });

  it('3.1 toggle flips is_active, needs no body, returns the skill; twice restores it', async () => {
    const skill = await createSkill(mock);
    const off = await call(mock, 'PATCH', `/api/v1/skills/${skill.id}/toggle`);
    expect(skillOf(off)).toEqual({ ...skill, is_active: false });
    const on = await call(mock, 'PATCH', `/api/v1/skills/${skill.id}/toggle`, { body: '{not json' });
    expect(skillOf(on).is_active).toBe(true);
  });

  it('4.1 delete is soft: data { id }, then the skill is gone from list and get, and kept in the store', async () => {
    const skill = await createSkill(mock);
    const reply = await call(mock, 'DELETE', `/api/v1/skills/${skill.id}`);
    expect([reply.status, reply.body.data]).toEqual([200, { id: skill.id }]);
    expect(await listedIds(mock)).toEqual([]);
    for (const [method, path] of [
      ['GET', ''],
      ['PATCH', ''],
      ['PATCH', '/toggle'],
      ['DELETE', ''],
    ] as const) {
      const again = await call(mock, method, `/api/v1/skills/${skill.id}${path}`, { body: {} });
      expect(outcome(again), `${method} ${path}`).toEqual([404, 'api_v1_not_found']);
    }
    expect(mock.store.skills()[0]?.deleted_at).toBe('2026-01-02T03:04:05.000Z');
  });

  it('7.1 a missing skill -> 404 api_v1_not_found on every endpoint', async () => {
    for (const [method, path] of [
      ['GET', '/api/v1/skills/42'],
      ['PATCH', '/api/v1/skills/42'],
      ['PATCH', '/api/v1/skills/42/toggle'],
      ['DELETE', '/api/v1/skills/42'],
    ] as const) {
      expect(outcome(await call(mock, method, path, { body: {} })), `${method} ${path}`).toEqual([
        404,
        'api_v1_not_found',
      ]);
    }
  });

  it('order: validation 422 comes before existence 404', async () => {
    const reply = await call(mock, 'PATCH', '/api/v1/skills/42', { body: { name: 5 } });
    expect(outcome(reply)).toEqual([422, 'api_v1_validation_error']);
  });

  it('order: existence 404 comes before policy 403', async () => {
    const reply = await call(mock, 'PATCH', '/api/v1/skills/42', { body: { shared_user_ids: [4] } });
    expect(outcome(reply)).toEqual([404, 'api_v1_not_found']);
  });
});

describe('2.2 visibility', () => {
  it("2.2 a credential sees its user's skills, also those another credential of the user created", async () => {
    const skill = await createSkill(mock, { visibility: 'private' });
    expect(await listedIds(mock, 'same-user')).toEqual([skill.id]);
    expect(
      (await call(mock, 'PATCH', `/api/v1/skills/${skill.id}/toggle`, { token: 'same-user' })).status,
    ).toBe(200);
  });

  it('2.2 a company skill is visible to coworkers, not to another company', async () => {
    const skill = await createSkill(mock, { level: 'company' });
    expect(await listedIds(mock, 'coworker')).toEqual([skill.id]);
    expect(await listedIds(mock, 'other-co')).toEqual([]);
  });

  it('2.2 a shared skill is visible to the users in shared_user_ids only', async () => {
    const skill = await createSkill(mock, { visibility: 'shared', shared_user_ids: [2] });
    expect(await listedIds(mock, 'coworker')).toEqual([skill.id]);
    expect(await listedIds(mock, 'third')).toEqual([]);
  });

  it('2.2 shared_user_ids counts only with visibility shared', async () => {
    await createSkill(mock, { visibility: 'public', shared_user_ids: [2] });
    expect(await listedIds(mock, 'coworker')).toEqual([]);
  });

  it('2.2 an update of shared_user_ids replaces the list', async () => {
    const skill = await createSkill(mock, { visibility: 'shared', shared_user_ids: [2] });
    await call(mock, 'PATCH', `/api/v1/skills/${skill.id}`, { body: { shared_user_ids: [3] } });
    expect(await listedIds(mock, 'coworker')).toEqual([]);
    expect(await listedIds(mock, 'third')).toEqual([skill.id]);
  });

  it('2.2 a personal public skill of a coworker is not visible', async () => {
    await createSkill(mock, {}, 'coworker');
    expect(await listedIds(mock)).toEqual([]);
  });

  it('5 a resource outside the credential is 404, never 403, with the same body as a missing one', async () => {
    const skill = await createSkill(mock, { visibility: 'private' });
    for (const [method, path] of [
      ['GET', ''],
      ['PATCH', ''],
      ['PATCH', '/toggle'],
      ['DELETE', ''],
    ] as const) {
      const hidden = await call(mock, method, `/api/v1/skills/${skill.id}${path}`, {
        token: 'coworker',
        body: {},
      });
      const missing = await call(mock, method, `/api/v1/skills/999${path}`, { token: 'coworker', body: {} });
      expect(outcome(hidden), `${method} ${path}`).toEqual([404, 'api_v1_not_found']);
      expect(hidden.body.message).toBe(missing.body.message);
      expect(hidden.body.data).toEqual(missing.body.data);
    }
    expect(skillOf(await call(mock, 'GET', `/api/v1/skills/${skill.id}`))).toEqual(skill);
  });
});

describe('5 and 7.2 policy', () => {
  it('7.2 workspace_id of another company -> 403 api_v1_resource_not_allowed', async () => {
    const reply = await call(mock, 'POST', '/api/v1/skills', {
      token: 'other-co',
      body: { name: 'n', instructions: 'i', level: 'workspace', workspace_id: 1 },
    });
    expect(outcome(reply)).toEqual([403, 'api_v1_resource_not_allowed']);
    expect(errorDataOf(reply)).toEqual({ field: 'workspace_id', ids: [1] });
  });

  it('7.2 a workspace_id that does not exist -> 403 api_v1_resource_not_allowed', async () => {
    const reply = await call(mock, 'POST', '/api/v1/skills', {
      body: { name: 'n', instructions: 'i', level: 'workspace', workspace_id: 99 },
    });
    expect(outcome(reply)).toEqual([403, 'api_v1_resource_not_allowed']);
  });

  it('7.2 a shared_user_ids entry outside the company -> 403 api_v1_resource_not_allowed, nothing saved', async () => {
    const reply = await call(mock, 'POST', '/api/v1/skills', {
      body: { name: 'n', instructions: 'i', visibility: 'shared', shared_user_ids: [2, 4, 99] },
    });
    expect(outcome(reply)).toEqual([403, 'api_v1_resource_not_allowed']);
    expect(reply.body.data).toEqual({ field: 'shared_user_ids', ids: [4, 99] });
    expect(mock.store.skills()).toEqual([]);
  });

  it('7.2 the same checks apply on update, and a refused update changes nothing', async () => {
    const skill = await createSkill(mock, { level: 'workspace', workspace_id: 1 });
    const share = await call(mock, 'PATCH', `/api/v1/skills/${skill.id}`, {
      body: { name: 'x', shared_user_ids: [4] },
    });
    expect(outcome(share)).toEqual([403, 'api_v1_resource_not_allowed']);
    const move = await call(mock, 'PATCH', `/api/v1/skills/${skill.id}`, {
      body: { name: 'x', workspace_id: 99 },
    });
    expect(outcome(move)).toEqual([403, 'api_v1_resource_not_allowed']);
    expect(skillOf(await call(mock, 'GET', `/api/v1/skills/${skill.id}`))).toEqual(skill);
  });

  it('5 a skills allowlist forbids creating -> 403 api_v1_resource_policy_create_denied', async () => {
    const reply = await call(mock, 'POST', '/api/v1/skills', {
      token: 'allow-skills',
      body: { name: 'n', instructions: 'i' },
    });
    expect(outcome(reply)).toEqual([403, 'api_v1_resource_policy_create_denied']);
  });

  it('5 a skills allowlist hides every skill it does not list (404 on read and write)', async () => {
    const listed = await createSkill(mock); // id 1, the one allowed
    const other = await createSkill(mock);
    expect(await listedIds(mock, 'allow-skills')).toEqual([listed.id]);
    expect(outcome(await call(mock, 'GET', `/api/v1/skills/${other.id}`, { token: 'allow-skills' }))).toEqual(
      [404, 'api_v1_not_found'],
    );
    expect((await call(mock, 'DELETE', `/api/v1/skills/${other.id}`, { token: 'allow-skills' })).status).toBe(
      404,
    );
    expect(
      (await call(mock, 'PATCH', `/api/v1/skills/${listed.id}/toggle`, { token: 'allow-skills' })).status,
    ).toBe(200);
  });

  it('5 a libraries allowlist: a workspace_id not listed -> 403 api_v1_resource_not_allowed', async () => {
    const denied = await call(mock, 'POST', '/api/v1/skills', {
      token: 'allow-libs',
      body: { name: 'n', instructions: 'i', level: 'workspace', workspace_id: 1 },
    });
    expect(outcome(denied)).toEqual([403, 'api_v1_resource_not_allowed']);
    const allowed = await createSkill(mock, { level: 'workspace', workspace_id: 2 }, 'allow-libs');
    expect(allowed.workspace_id).toBe(2);
  });
});

describe('reset and inspection', () => {
  it('reset() forgets every skill and restarts ids; credentials stay', async () => {
    await createSkill(mock);
    mock.reset();
    expect(mock.store.skills()).toEqual([]);
    expect((await createSkill(mock)).id).toBe(1);
    expect(mock.store.credentials().length).toBe(TOKENS.length);
  });

  it('store.skills() shows what the API hides: owner, sharing, deletion; as copies', async () => {
    await createSkill(mock, { visibility: 'shared', shared_user_ids: [2] }, 'same-user');
    const [record] = mock.store.skills();
    expect(record).toMatchObject({
      owner_user_id: 1,
      owner_credential_id: 2,
      shared_user_ids: [2],
      deleted_at: null,
    });
    record!.name = 'changed';
    expect(mock.store.skills()[0]?.name).toBe('Tone');
  });
});
