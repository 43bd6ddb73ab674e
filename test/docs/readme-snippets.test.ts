import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import * as sdk from '../../src/index.js';

// Every ```ts block of the README and of the guides in docs/ compiles, as a module, against the SDK's real
// types. Free names the prose leaves to the reader (`client`, `chatId`, `render`) are declared once in a
// globals file.
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

/** The pages whose snippets are checked: the README and every guide. */
const pages = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => join('docs', name)),
];

/** Each ```ts block of the pages, named by its page and its place there (for tsc's messages). */
function snippets(): { name: string; code: string }[] {
  return pages.flatMap((page) => {
    const text = readFileSync(join(root, page), 'utf8');
    return [...text.matchAll(/```ts\n([\s\S]*?)```/g)].map((match, i) => ({
      name: `${basename(page, '.md')}-${String(i + 1).padStart(2, '0')}.ts`,
      code: match[1]!,
    }));
  });
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

/** Type-checks `blocks` in `folder` (under the cache) with the repository's tsconfig and `options` on top. */
function compile(folder: string, blocks: { name: string; code: string }[], options: object): void {
  const at = join(dir, folder);
  rmSync(at, { recursive: true, force: true });
  mkdirSync(at, { recursive: true });
  writeFileSync(join(at, 'globals.d.ts'), GLOBALS);
  for (const { name, code } of blocks) writeFileSync(join(at, name), withImports(code));
  writeFileSync(
    join(at, 'tsconfig.json'),
    JSON.stringify({
      extends: join(root, 'tsconfig.json'),
      compilerOptions: { noEmit: true, ...options },
      include: ['*.ts'],
    }),
  );
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  try {
    execFileSync(process.execPath, [tsc, '-p', join(at, 'tsconfig.json')], { encoding: 'utf8' });
  } catch (error) {
    throw new Error(`snippets do not compile:\n${(error as { stdout?: string }).stdout ?? error}`);
  }
}

describe('README and guides', () => {
  // One tsc run over every snippet: some 15 s alone, far more on a loaded machine.
  it('every TypeScript snippet of the README and docs/*.md type-checks against the SDK', {
    timeout: 120_000,
  }, () => {
    const blocks = snippets();
    expect(blocks.length).toBeGreaterThan(10);
    compile('strict', blocks, {});
  });

  // A Next.js app's tsconfig as `next build` writes it has `strict: false`: the chat route's snippets, copied
  // there, must type-check too (a Redis client's types, say, can differ without strict null checks).
  it('docs/ai-sdk.md snippets type-check under the tsconfig next build writes (strict: false)', {
    timeout: 120_000,
  }, () => {
    const blocks = snippets().filter(({ name }) => name.startsWith('ai-sdk-'));
    expect(blocks.length).toBeGreaterThan(5);
    // Against the built declarations, as an app installs them (`npm test` builds before it runs vitest).
    const dist = (file: string) => [join(root, 'dist', file)];
    compile('next', blocks, {
      strict: false,
      exactOptionalPropertyTypes: false,
      noUncheckedIndexedAccess: false,
      paths: { 'convo-sdk': dist('index.d.ts'), 'convo-sdk/ai': dist('ai.d.ts') },
    });
  });
});
