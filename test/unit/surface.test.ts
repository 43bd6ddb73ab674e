import { describe, expect, it } from 'vitest';
import * as root from '../../src/index.js';
import * as mock from '../../src/mock/index.js';
import * as schemas from '../../src/schemas.js';

describe('the public surface', () => {
  it('the root export holds no schemas and no internals; convo-sdk/schemas holds the schemas', () => {
    const names = Object.keys(root);
    expect(names.filter((name) => /Schemas?$|^EVENT_SCHEMAS$|^EVENTS$/.test(name))).toEqual([]);
    expect(names).not.toContain('Transport');
    expect(names).not.toContain('ANSWER_ENDPOINTS');
    expect(names).toEqual(expect.arrayContaining(['Client', 'ApiError', 'TurnStream', 'Page', 'LIMITS']));
    const schemaNames = Object.keys(schemas);
    expect(schemaNames.length).toBeGreaterThan(30);
    expect(
      schemaNames.every((name) => /Schema$|^EVENT_SCHEMAS$|^ERROR_DATA_SCHEMAS$|^EVENTS$/.test(name)),
    ).toBe(true);
  });

  it('a name exported by both convo-sdk and convo-sdk/mock means one thing: the same value', () => {
    const shared = Object.keys(mock).filter((name) => name in root);
    for (const name of shared) {
      expect((mock as Record<string, unknown>)[name], name).toBe((root as Record<string, unknown>)[name]);
    }
  });

  it('5 the 401 of a missing or unknown credential is a known code', () => {
    expect(root.KNOWN_CODES).toContain('api_v1_unauthorized');
  });
});
