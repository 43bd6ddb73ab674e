import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { links, prose } from '../support/doc-links.js';

// The README is the front door and each surface has its guide in docs/: a link between them that names a
// file or a heading that moved is a dead end for the reader, so every relative link must resolve.
const root = join(import.meta.dirname, '..', '..');

/** The README, the pages that link into the guides, and every page in docs/, from the repository's root. */
const pages = [
  'README.md',
  'RELIABILITY.md',
  'BENCHMARKS.md',
  'ARCHITECTURE.md',
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => join('docs', name)),
];

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
function slug(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** Every anchor of a page, numbered as GitHub numbers a repeated heading (`-1`, `-2`). */
function anchors(file: string): Set<string> {
  const seen = new Map<string, number>();
  const found = new Set<string>();
  for (const line of prose(readFileSync(file, 'utf8'))) {
    const heading = /^#{1,6}\s+(.*)$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const base = slug(heading.trim());
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    found.add(count === 0 ? base : `${base}-${count}`);
  }
  return found;
}

/** Why a link of a page does not resolve, or undefined when it does. */
function problem(page: string, target: string): string | undefined {
  const [path = '', anchor] = target.split('#');
  const file = path === '' ? join(root, page) : join(root, dirname(page), decodeURIComponent(path));
  if (!existsSync(file)) return `no file ${relative(root, file)}`;
  if (anchor === undefined) return undefined;
  if (!file.endsWith('.md')) return `an anchor into ${relative(root, file)}, which has no headings`;
  return anchors(file).has(anchor) ? undefined : `no heading #${anchor} in ${relative(root, file)}`;
}

describe('links of the README, the guides and the pages beside them', () => {
  it('GitHub anchors drop punctuation and keep hyphens', () => {
    expect(slug('Time, faults and counters')).toBe('time-faults-and-counters');
    expect(slug('Abort versus cancel')).toBe('abort-versus-cancel');
    expect(slug('`convo-mock` and the AI SDK')).toBe('convo-mock-and-the-ai-sdk');
  });

  it('the README links to a guide for each surface', () => {
    const targets = new Set(links('README.md').map((target) => target.split('#')[0]));
    for (const guide of ['client', 'streaming', 'mock', 'inspector', 'ai-sdk', 'conformance', 'openapi']) {
      expect(targets, guide).toContain(`docs/${guide}.md`);
    }
  });

  it('every relative link and #anchor resolves to an existing file and heading', () => {
    const broken = pages.flatMap((page) =>
      links(page).flatMap((target) => {
        const why = problem(page, target);
        return why === undefined ? [] : [`${page}: (${target}) ${why}`];
      }),
    );
    expect(broken).toEqual([]);
  });

  it('a link to a heading that does not exist is found', () => {
    expect(problem('README.md', 'docs/client.md#no-such-heading')).toBe(
      'no heading #no-such-heading in docs/client.md',
    );
    expect(problem('docs/mock.md', 'missing.md')).toBe('no file docs/missing.md');
    expect(problem('docs/mock.md', 'client.md#what-is-retried')).toBeUndefined();
  });
});
