import { describe, expect, it } from 'vitest';
import { elicitationIssues, jsonSchemaValidator } from '../../src/contract/elicitation.js';
import { cpuTimeOf } from '../support/cpu-time.js';

const form = (email: Record<string, unknown>) => ({
  type: 'object',
  properties: { email: { type: 'string', ...email } },
});

/**
 * Runs a check and measures its CPU time: a hostile schema must be refused, not run, so each takes
 * milliseconds; a backtracking pattern run over these 41 characters would take hours.
 */
async function timed(schema: Record<string, unknown>, content: Record<string, unknown>) {
  const { result: issues, ms } = await cpuTimeOf(() =>
    elicitationIssues(schema, content, jsonSchemaValidator),
  );
  return { issues, ms };
}

describe('hostile elicitation schemas (a third-party connector writes requested_schema)', () => {
  it.each([
    ['a self-reference', { $ref: '#' }, 'requested_schema.$ref', /reference/],
    [
      'a nested self-reference',
      form({ $ref: '#/properties/email' }),
      'requested_schema.properties.email.$ref',
      /reference/,
    ],
    [
      'a pattern that does not compile',
      form({ pattern: '([' }),
      'requested_schema.properties.email.pattern',
      /not a valid/,
    ],
    [
      'a backtracking pattern',
      form({ pattern: '^(a+)+$' }),
      'requested_schema.properties.email.pattern',
      /backtrack/,
    ],
    [
      'a backtracking group of groups',
      form({ pattern: '^((ab)*c)*$' }),
      'requested_schema.properties.email.pattern',
      /backtrack/,
    ],
    [
      'a backtracking property-name pattern',
      { type: 'object', patternProperties: { '^(a*)*$': {} } },
      'requested_schema.patternProperties.^(a*)*$',
      /backtrack/,
    ],
  ])(
    '4.5 %s is a ValidationError issue in bounded time, never a raw error',
    async (_name, schema, field, message) => {
      const { issues, ms } = await timed(schema, { email: `${'a'.repeat(40)}!` });
      expect(issues).toContainEqual({ field, message: expect.stringMatching(message) });
      expect(ms).toBeLessThan(2_000);
    },
  );

  it('4.5 a schema nested past 32 levels or larger than 64 KiB is refused', async () => {
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 40; i++) deep = { type: 'object', properties: { x: deep } };
    expect((await timed(deep, {})).issues[0]?.message).toMatch(/deeper than 32/);
    const huge = form({ description: 'x'.repeat(70_000) });
    expect((await timed(huge, {})).issues).toEqual([
      { field: 'requested_schema', message: 'is larger than 65536 characters' },
    ]);
  });

  it('4.5 ordinary patterns still check content', async () => {
    const schema = form({ pattern: '^[a-z]+(\\.[a-z]+)*@example\\.com$' });
    expect((await timed(schema, { email: 'ada.l@example.com' })).issues).toEqual([]);
    expect((await timed(schema, { email: 'nope' })).issues.map((i) => i.field)).toEqual(['content.email']);
  });
});
