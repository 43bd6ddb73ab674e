import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CHECKS, expectedOf } from '../../src/conformance/checks/index.js';

// The spec is not part of the clone: CI checks it out as ../shared beside it, as the worktrees have it.
const spec = readFileSync(new URL('../../../shared/spec/api-v1.md', import.meta.url), 'utf8');

/** The text of a section of the spec: its heading up to the next heading of its level or above. */
function sectionText(section: string): string {
  const lines = spec.split('\n');
  const heading = new RegExp(`^(#+) ${section.replaceAll('.', '\\.')}\\.? `);
  const start = lines.findIndex((line) => heading.test(line));
  if (start < 0) return '';
  const depth = heading.exec(lines[start] ?? '')?.[1]?.length ?? 0;
  const end = lines.findIndex(
    (line, index) => index > start && /^#+ /.test(line) && line.indexOf(' ') <= depth,
  );
  return lines.slice(start, end < 0 ? undefined : end).join('\n');
}

describe("each check's expectation quotes api-v1.md", () => {
  it.each(CHECKS.map((check) => [`${check.section} ${check.title}`, check] as const))(
    '%s: its quote is a sentence of its section, verbatim',
    (_, check) => {
      expect(check.quote.length).toBeGreaterThanOrEqual(10);
      expect(sectionText(check.section)).toContain(check.quote);
    },
  );

  it('a section of the spec is read up to the next one', () => {
    expect(sectionText('7.2')).toContain('prompt_text_too_long');
    expect(sectionText('7.2')).not.toContain('api_v1_sync_requires_auto');
    expect(sectionText('5')).not.toContain('message.start');
    expect(sectionText('99')).toBe('');
  });

  it('a failure names the section and the sentence before what the check looked for', () => {
    const [check] = CHECKS;
    expect(check && expectedOf(check, '401')).toBe(`${check?.section} "${check?.quote}": 401`);
  });
});
