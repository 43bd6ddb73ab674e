import { describe, expect, it } from 'vitest';
import { CatalogSchema } from '../../src/contract/catalog.js';
import { EnvelopeSchema } from '../../src/contract/envelope.js';
import { createMock } from '../../src/mock/index.js';
import { CHAT_TOKENS, call, createSkill } from './helpers.js';

async function catalog(mock: ReturnType<typeof createMock>, token = 'mock-token') {
  const reply = await call(mock, 'GET', '/api/v1/chat/catalog', { token });
  expect(reply.status).toBe(200);
  EnvelopeSchema.parse(reply.body);
  return CatalogSchema.parse(reply.body.data);
}

describe('2.5 catalog', () => {
  it('2.5 models are the COMPLETION ones only (1 and 2); permission_modes is ["manual","auto"]', async () => {
    const data = await catalog(createMock({ tokens: CHAT_TOKENS }));
    expect(data.models).toEqual([
      { id: 1, name: 'Mock Large', code: 'mock-large', type: 'COMPLETION' },
      { id: 2, name: 'Mock Small', code: 'mock-small', type: 'COMPLETION' },
    ]);
    expect(data.permission_modes).toEqual(['manual', 'auto']);
  });

  it('2.5 with every scope: libraries, visible skills (id, name) and connectors (id, name, display_name)', async () => {
    const mock = createMock({ tokens: CHAT_TOKENS });
    const skill = await createSkill(mock, { name: 'Tone' });
    await createSkill(mock, { name: 'Elsewhere' }, 'other-co');
    const data = await catalog(mock);
    expect(data.libraries).toEqual([
      { id: 1, name: 'Handbook' },
      { id: 2, name: 'Research' },
    ]);
    expect(data.skills).toEqual([{ id: skill.id, name: 'Tone' }]);
    expect(data.connectors).toEqual([
      { id: 1, name: 'github', display_name: 'GitHub' },
      { id: 2, name: 'drive', display_name: 'Drive' },
    ]);
  });

  it('2.5 a block whose scope is missing is absent, not empty', async () => {
    const data = await catalog(createMock({ tokens: CHAT_TOKENS }), 'reader');
    expect(Object.keys(data).sort()).toEqual(['models', 'permission_modes']);
  });

  it('2.5 a block present with its scope may be empty (another company has no libraries or connectors)', async () => {
    const data = await catalog(createMock({ tokens: CHAT_TOKENS }), 'other-co');
    expect(data).toMatchObject({ libraries: [], skills: [], connectors: [] });
  });

  it('5 a library allowlist narrows the libraries block', async () => {
    const data = await catalog(createMock({ tokens: CHAT_TOKENS }), 'allow-libs');
    expect(data.libraries).toEqual([{ id: 2, name: 'Research' }]);
  });
});
