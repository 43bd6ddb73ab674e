import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { links } from '../support/doc-links.js';

// The README and the guides are read where the package is installed (npm's page, node_modules): each of
// their relative links must name a file the tarball ships. `npm pack --dry-run` lists those files as the
// "files" field selects them, without building.
const root = join(import.meta.dirname, '..', '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

describe('the guides’ links inside the packed tarball', () => {
  it('every relative link of README.md and docs/*.md resolves to a file npm pack ships', () => {
    const [packed] = JSON.parse(
      execFileSync(npm, ['pack', '--dry-run', '--ignore-scripts', '--json'], { cwd: root, encoding: 'utf8' }),
    ) as [{ files: Array<{ path: string }> }];
    const shipped = packed.files.map(({ path }) => path);
    const pages = ['README.md', ...readdirSync(join(root, 'docs')).filter((name) => name.endsWith('.md'))];
    const broken = pages
      .map((page) => (page === 'README.md' ? page : `docs/${page}`))
      .flatMap((page) =>
        links(page).flatMap((target) => {
          const path = decodeURIComponent(target.split('#')[0]!);
          if (path === '') return [];
          const file = normalize(join(dirname(page), path)).replace(/\/$/, '');
          const ships = shipped.some(
            (shippedPath) => shippedPath === file || shippedPath.startsWith(`${file}/`),
          );
          return ships ? [] : [`${page}: (${target}) ${file} is not in the tarball`];
        }),
      );
    expect(shipped).toContain('README.md');
    expect(broken).toEqual([]);
  });
});
