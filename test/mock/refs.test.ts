import { beforeEach, describe, expect, it } from 'vitest';
import { type ConvoMock, createMock } from '../../src/mock/index.js';
import { call, createSkill, errorDataOf, outcome, skillOf, TOKENS } from './helpers.js';

let mock: ConvoMock;
beforeEach(() => {
  mock = createMock({ tokens: TOKENS });
});

/** Creates a skill citing `instructions` as `token`; returns the reply. */
function create(instructions: string, token = 'mock-token') {
  return call(mock, 'POST', '/api/v1/skills', { token, body: { name: 'n', instructions } });
}

describe('7.2 {{type:id}} references in instructions', () => {
  it('7.2 references to resources that exist and are usable are accepted', async () => {
    const cited = await createSkill(mock);
    const instructions = `Use {{library:1}}, {{library:2}}, {{file:11}}, {{file:21}}, {{connector:1}}, {{connector:2}}, {{tool:1}} and {{skill:${cited.id}}}.`;
    const reply = await create(instructions);
    expect(reply.status).toBe(201);
    expect(skillOf(reply).instructions).toBe(instructions);
  });

  it('7.2 missing resources -> 422 prompt_refs_invalid, grouped by type in data[0]; nothing saved', async () => {
    const reply = await create(
      'See {{library:99}}, {{file:12345}}, {{file:13}}, {{connector:3}}, {{tool:2}}, {{skill:7}}.',
    );
    expect(outcome(reply)).toEqual([422, 'prompt_refs_invalid']);
    expect(errorDataOf(reply)).toEqual([
      { library: [99], file: [12345, 13], connector: [3], tool: [2], skill: [7] },
    ]);
    expect(mock.store.skills()).toEqual([]);
  });

  it('7.2 only the invalid references are listed, each id once', async () => {
    const reply = await create('{{library:1}} {{library:99}} {{library:99}} {{file:11}}');
    expect(reply.body.data).toEqual([{ library: [99] }]);
  });

  it('7.2 an unknown type or an id that is not an integer is invalid, reported as written', async () => {
    const reply = await create('{{widget:1}} {{library:abc}} {{library:}} {{__proto__:1}}');
    expect(outcome(reply)).toEqual([422, 'prompt_refs_invalid']);
    expect(reply.body.data).toEqual([{ widget: [1], library: ['abc', ''], ['__proto__']: [1] }]);
  });

  it('7.2 text without a colon is not a reference', async () => {
    expect((await create('Hello {{name}} and {single:1}')).status).toBe(201);
  });

  it("7.2 another company's resources are unusable: library, file, connector, tool", async () => {
    const reply = await create('{{library:1}} {{file:11}} {{connector:1}} {{tool:1}}', 'other-co');
    expect(outcome(reply)).toEqual([422, 'prompt_refs_invalid']);
    expect(reply.body.data).toEqual([{ library: [1], file: [11], connector: [1], tool: [1] }]);
  });

  it('7.2 a library allowlist makes other libraries and their files unusable', async () => {
    const reply = await create('{{library:1}} {{file:12}} {{library:2}} {{file:21}}', 'allow-libs');
    expect(reply.body.data).toEqual([{ library: [1], file: [12] }]);
  });

  it('7.2 a skill the user cannot see, or a deleted one, is invalid', async () => {
    const hidden = await createSkill(mock, { visibility: 'private' }, 'coworker');
    const deleted = await createSkill(mock);
    await call(mock, 'DELETE', `/api/v1/skills/${deleted.id}`);
    const reply = await create(`{{skill:${hidden.id}}} {{skill:${deleted.id}}}`);
    expect(reply.body.data).toEqual([{ skill: [hidden.id, deleted.id] }]);
  });

  it('7.2 a company skill of a coworker can be cited', async () => {
    const company = await createSkill(mock, { level: 'company' }, 'coworker');
    expect((await create(`{{skill:${company.id}}}`)).status).toBe(201);
  });

  it('4.1 changed instructions are revalidated on update; a refused update changes nothing', async () => {
    const skill = await createSkill(mock);
    const reply = await call(mock, 'PATCH', `/api/v1/skills/${skill.id}`, {
      body: { name: 'renamed', instructions: '{{skill:987654}}' },
    });
    expect(outcome(reply)).toEqual([422, 'prompt_refs_invalid']);
    expect(reply.body.data).toEqual([{ skill: [987654] }]);
    expect(skillOf(await call(mock, 'GET', `/api/v1/skills/${skill.id}`))).toEqual(skill);
  });

  it('4.1 an update that does not change the instructions does not revalidate them', async () => {
    const cited = await createSkill(mock);
    const skill = await createSkill(mock, { instructions: `{{skill:${cited.id}}}` });
    await call(mock, 'DELETE', `/api/v1/skills/${cited.id}`);
    const rename = await call(mock, 'PATCH', `/api/v1/skills/${skill.id}`, { body: { name: 'renamed' } });
    expect(rename.status).toBe(200);
    const same = await call(mock, 'PATCH', `/api/v1/skills/${skill.id}`, {
      body: { instructions: skill.instructions },
    });
    expect(same.status).toBe(200);
  });

  it('order: policy 403 comes before references 422', async () => {
    const reply = await call(mock, 'POST', '/api/v1/skills', {
      body: { name: 'n', instructions: '{{library:99}}', visibility: 'shared', shared_user_ids: [4] },
    });
    expect(outcome(reply)).toEqual([403, 'api_v1_resource_not_allowed']);
  });
});
