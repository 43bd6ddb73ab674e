import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ReadingChecks } from './readings/harness.js';
import { HTTP_READINGS, SKILL_READINGS } from './readings/http.js';
import { CANCEL_READINGS, checkCors, INTERACTION_READINGS } from './readings/interactions.js';
import { KEY_READINGS, STREAM_READINGS, TURN_READINGS } from './readings/turns.js';

// docs/readings.md lists what the mock does where the contract is silent, one table row per reading, and
// says where the mock does it, as "`symbol`, `symbol` (`module.ts`)". Each reading is checked here as a
// behaviour of the in-process mock (the checks are keyed by the row's first cell, so a new row without a
// check, or a check whose row was reworded, fails), and each place it cites must define the symbol.
const root = join(import.meta.dirname, '..', '..');
const page = readFileSync(join(root, 'docs/readings.md'), 'utf8');
const sources = readdirSync(join(root, 'src'), { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.ts'))
  .map((file) => file.split('\\').join('/'));

const CHECKS: ReadingChecks = {
  ...HTTP_READINGS,
  ...SKILL_READINGS,
  ...TURN_READINGS,
  ...KEY_READINGS,
  ...STREAM_READINGS,
  ...INTERACTION_READINGS,
  ...CANCEL_READINGS,
};

/** The first cell of every reading row of the page (header and separator rows left out). */
function readings(): string[] {
  return page
    .split('\n')
    .filter((line) => line.startsWith('| ') && !line.startsWith('| Where the spec is silent |'))
    .map((line) => line.slice(2, line.indexOf(' | ')));
}

/** Each place the page cites: the symbols and the module that holds them. */
function citations(): Array<{ symbols: string[]; module: string }> {
  const found: Array<{ symbols: string[]; module: string }> = [];
  for (const match of page.matchAll(/((?:`[\w.]+`(?:, )?)+) \(`([\w/.-]+\.ts)`\)/g)) {
    const symbols = [...match[1]!.matchAll(/`([\w.]+)`/g)].map((m) => m[1]!);
    found.push({ symbols, module: match[2]! });
  }
  return found;
}

/** Whether `text` (a module) defines `symbol`: a declaration, or a method of the class `Class.method`. */
function defines(text: string, symbol: string): boolean {
  const [owner, member] = symbol.split('.');
  const declared = (name: string) =>
    new RegExp(`(?:function\\*?|const|let|class|interface|type|enum)\\s+${name}\\b`).test(text);
  if (member === undefined) return declared(owner!);
  return declared(owner!) && new RegExp(`^\\s+(?:static\\s+|async\\s+)*${member}\\(`, 'm').test(text);
}

describe('docs/readings.md', () => {
  it('every reading has a behavioural check, and every check a reading', () => {
    expect(Object.keys(CHECKS).sort()).toEqual(readings().sort());
  });

  it.each(Object.entries(CHECKS))('reading: %s', async (_reading, check) => {
    await check();
  });

  it('reading: CORS (the paragraph)', checkCors);

  it('cites the places of the mock', () => {
    expect(citations().length).toBeGreaterThan(70);
  });

  it('each cited symbol is defined (not only named) in the module it names', () => {
    const missing: string[] = [];
    for (const { symbols, module } of citations()) {
      const files = sources.filter((file) => file === module || file.endsWith(`/${module}`));
      const text = files.map((file) => readFileSync(join(root, 'src', file), 'utf8')).join('\n');
      for (const symbol of symbols) {
        if (files.length === 0 || !defines(text, symbol)) missing.push(`${symbol} (${module})`);
      }
    }
    expect(missing).toEqual([]);
  });
});
