import { describe, expect, it } from 'vitest';
import { createMock, FIXTURES } from '../../src/mock/index.js';
import { auto, call, errorDataOf, outcome, send } from './helpers.js';

const mock = createMock({ tokens: [{ token: 'company-1' }, { token: 'company-2', userId: 4 }] });

describe('mock-conventions fixtures: libraries, files, connectors and tools belong to company 1', () => {
  it('conventions: the seeded libraries and connectors are all company 1’s; tools and files hang off them', () => {
    expect(FIXTURES.libraries.map((library) => library.companyId)).toEqual([1, 1]);
    expect(FIXTURES.connectors.map((connector) => connector.companyId)).toEqual([1, 1]);
    const libraries = new Set(FIXTURES.libraries.map((library) => library.id));
    expect(FIXTURES.files.every((file) => libraries.has(file.libraryId))).toBe(true);
    const connectors = new Set(FIXTURES.connectors.map((connector) => connector.id));
    expect(FIXTURES.tools.every((tool) => connectors.has(tool.connectorId))).toBe(true);
  });

  it('conventions: to user 4 (company 2) every attachment is 404, as if it did not exist', async () => {
    const lists = [
      ['workspace_ids', 1],
      ['file_ids', 11],
      ['mcp_server_ids', 1],
    ] as const;
    for (const [list, id] of lists) {
      const attachments = { [list]: [id] };
      const theirs = await send(mock, crypto.randomUUID(), auto('a', { attachments }), {
        token: 'company-2',
      });
      expect([...outcome(theirs), theirs.body.data], list).toEqual([
        404,
        'api_v1_not_found',
        { field: `attachments.${list}`, ids: [id] },
      ]);
      const ours = await send(mock, crypto.randomUUID(), auto('a', { attachments }), { token: 'company-1' });
      expect(ours.status, list).toBe(200);
    }
  });

  it('conventions: to user 4, {{library:1}} and the others are invalid references (7.2 prompt_refs_invalid)', async () => {
    const reply = await call(mock, 'POST', '/api/v1/skills', {
      token: 'company-2',
      body: { name: 'n', instructions: '{{library:1}} {{file:11}} {{connector:1}} {{tool:1}}' },
    });
    expect(outcome(reply)).toEqual([422, 'prompt_refs_invalid']);
    expect(errorDataOf(reply)).toEqual([{ library: [1], file: [11], connector: [1], tool: [1] }]);
  });

  it('conventions: to user 4, workspace_id 1 is outside the scope (7.2 api_v1_resource_not_allowed)', async () => {
    const reply = await call(mock, 'POST', '/api/v1/skills', {
      token: 'company-2',
      body: { name: 'n', instructions: 'i', level: 'workspace', workspace_id: 1 },
    });
    expect(outcome(reply)).toEqual([403, 'api_v1_resource_not_allowed']);
  });

  it('conventions: to user 4 the catalog’s libraries and connectors blocks are empty (2.5)', async () => {
    const theirs = await call(mock, 'GET', '/api/v1/chat/catalog', { token: 'company-2' });
    expect(theirs.body.data).toMatchObject({ libraries: [], connectors: [] });
    const ours = await call(mock, 'GET', '/api/v1/chat/catalog', { token: 'company-1' });
    expect(ours.body.data).toMatchObject({
      libraries: [{ id: 1 }, { id: 2 }],
      connectors: [{ id: 1 }, { id: 2 }],
    });
  });
});
