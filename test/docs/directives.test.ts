import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DIRECTIVE_NAMES } from '../../src/mock/model/directives.js';

const guide = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'mock.md'), 'utf8');

/** The directive named in each row of the table under `heading` (its first cell, `[[mock:NAME ...]]`). */
function tableDirectives(heading: string): string[] {
  const section = guide.slice(guide.indexOf(`\n${heading}\n`));
  const table = section.slice(section.indexOf('\n| directive |') + 1).split('\n\n')[0]!;
  return table
    .split('\n')
    .slice(2)
    .map(
      (row) =>
        row
          .split('|')[1]!
          .trim()
          .match(/^`\[\[mock:([a-z_]+)[ \]]/)?.[1] ?? `(unreadable: ${row})`,
    );
}

describe('the directives the mock runs are the directives docs/mock.md lists', () => {
  const listed = tableDirectives('## Scripting the fake model');

  it('mock-conventions: every directive of the model has a row in the guide’s table, and every row a directive', () => {
    expect([...listed].sort()).toEqual([...DIRECTIVE_NAMES].sort());
  });

  it('each directive has one row', () => {
    expect(new Set(listed).size).toBe(listed.length);
  });
});
