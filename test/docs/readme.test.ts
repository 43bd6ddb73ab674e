import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// The README is the front door: a reader sees the client in code before scrolling far, and it quotes no
// figure of the moment that the next install or release makes wrong.
const readme = readFileSync(join(import.meta.dirname, '..', '..', 'README.md'), 'utf8');
const lines = readme.split('\n');

describe('README.md', () => {
  it('shows the client in code within its first 40 lines', () => {
    const first = lines.findIndex((line) => line.startsWith('```ts'));
    expect(first).toBeGreaterThanOrEqual(0);
    expect(first).toBeLessThan(40);
    expect(lines.slice(first, first + 8).join('\n')).toMatch(/new Client\(/);
  });

  it('quotes no count of install warnings or lines of output', () => {
    expect(readme).not.toMatch(/\d+\s+lines?\b/);
    expect(readme).not.toMatch(/\d+ (of them )?`?npm warn/);
  });

  it('points at the API reference and how to build it', () => {
    expect(readme).toMatch(/API reference.*`npm run docs`/);
  });
});
