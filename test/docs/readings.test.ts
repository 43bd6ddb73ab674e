import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// docs/readings.md says where the mock makes each reading, as "`symbol`, `symbol` (`module.ts`)". Those
// places must exist, so that the page follows the code when it moves. A module is named by the end of its
// path under src/ (`routes/skills.ts`, `contract/text.ts`), so moving it between folders keeps it found.
const root = join(import.meta.dirname, '..', '..');
const page = readFileSync(join(root, 'docs/readings.md'), 'utf8');
const sources = readdirSync(join(root, 'src'), { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.ts'))
  .map((file) => file.split('\\').join('/'));

/** Each place the page cites: the symbols and the module that holds them. */
function citations(): Array<{ symbols: string[]; module: string }> {
  const found: Array<{ symbols: string[]; module: string }> = [];
  for (const match of page.matchAll(/((?:`[\w.]+`(?:, )?)+) \(`([\w/.-]+\.ts)`\)/g)) {
    const symbols = [...match[1]!.matchAll(/`([\w.]+)`/g)].map((m) => m[1]!);
    found.push({ symbols, module: match[2]! });
  }
  return found;
}

describe('docs/readings.md', () => {
  it('cites the places of the mock', () => {
    expect(citations().length).toBeGreaterThan(40);
  });

  it('each cited symbol is defined in the module it names', () => {
    const missing: string[] = [];
    for (const { symbols, module } of citations()) {
      const files = sources.filter((file) => file === module || file.endsWith(`/${module}`));
      const text = files.map((file) => readFileSync(join(root, 'src', file), 'utf8')).join('\n');
      for (const symbol of symbols) {
        const name = symbol.split('.').at(-1)!;
        if (files.length === 0 || !new RegExp(`\\b${name}\\b`).test(text))
          missing.push(`${symbol} (${module})`);
      }
    }
    expect(missing).toEqual([]);
  });
});
