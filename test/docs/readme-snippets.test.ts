import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import * as sdk from '../../src/index.js';

// Every ```ts block of the README compiles, as a module, against the SDK's real types. Free names the
// prose leaves to the reader (`client`, `chatId`, `render`) are declared once in a globals file.
const root = join(import.meta.dirname, '..', '..');
const dir = join(root, 'node_modules', '.cache', 'readme-snippets');

const GLOBALS = `
declare const client: import('convo-sdk').Client;
declare const chatId: string;
declare const stream: import('convo-sdk').TurnStream;
declare const question: string;
declare const answer: { textContent: string };
declare function render(text: string): void;
declare function done(type: string): void;
declare function askUser(title: string): Promise<boolean>;
`;

function snippets(): string[] {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  return [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]!);
}

/** Imports from convo-sdk the names a snippet uses without importing them itself. */
function withImports(code: string): string {
  const imported = new Set(
    [...code.matchAll(/import\s*\{([^}]*)\}/g)].flatMap((m) => m[1]!.split(',').map((n) => n.trim())),
  );
  const used = Object.keys(sdk).filter(
    (name) => !imported.has(name) && new RegExp(`\\b${name}\\b`).test(code),
  );
  const importLine = used.length > 0 ? `import { ${used.join(', ')} } from 'convo-sdk';\n` : '';
  return `${importLine}${code}\nexport {};\n`;
}

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('README', () => {
  // One tsc run over every snippet: some 15 s alone, far more on a loaded machine.
  it('every TypeScript snippet type-checks against the SDK', { timeout: 120_000 }, () => {
    const blocks = snippets();
    expect(blocks.length).toBeGreaterThan(10);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'globals.d.ts'), GLOBALS);
    for (const [i, code] of blocks.entries()) {
      writeFileSync(join(dir, `snippet-${String(i + 1).padStart(2, '0')}.ts`), withImports(code));
    }
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        extends: join(root, 'tsconfig.json'),
        compilerOptions: { noEmit: true },
        include: ['*.ts'],
      }),
    );
    const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
    try {
      execFileSync(process.execPath, [tsc, '-p', join(dir, 'tsconfig.json')], { encoding: 'utf8' });
    } catch (error) {
      throw new Error(`README snippets do not compile:\n${(error as { stdout?: string }).stdout ?? error}`);
    }
  });
});
