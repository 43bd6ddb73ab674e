import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { compileFunction } from 'node:vm';
import { beforeAll, describe, expect, it } from 'vitest';
import type * as Sdk from '../../src/index.js';
import type * as Mock from '../../src/mock/index.js';

// The CommonJS build as Jest runs it: each file compiled by `vm` with no dynamic import callback, so an
// `import()` anywhere rejects (ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING; Jest without
// --experimental-vm-modules says ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING_FLAG).
const root = join(import.meta.dirname, '..', '..');
const dist = join(root, 'dist');

beforeAll(() => {
  execFileSync(process.execPath, [join(root, 'scripts', 'dist.mjs'), 'check'], { stdio: 'pipe' });
});

/** Every .cjs file of dist/, by path. */
function cjsFiles(dir = dist): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return cjsFiles(path);
    return entry.name.endsWith('.cjs') ? [path] : [];
  });
}

/**
 * Loads `entry` the way Jest's CommonJS runtime does: the package's own files through `vm` without dynamic
 * import support, its dependencies through Node's `require`.
 */
function vmRequire(entry: string): unknown {
  const modules = new Map<string, { exports: unknown }>();
  const load = (file: string): unknown => {
    const cached = modules.get(file);
    if (cached) return cached.exports;
    const module = { exports: {} };
    modules.set(file, module);
    const body = compileFunction(
      readFileSync(file, 'utf8'),
      ['exports', 'require', 'module', '__filename', '__dirname'],
      { filename: file },
    );
    const nodeRequire = createRequire(file);
    const require = (id: string) => {
      const path = nodeRequire.resolve(id);
      return path.startsWith(dist) ? load(path) : nodeRequire(id);
    };
    body(module.exports, require, module, file, dirname(file));
    return module.exports;
  };
  return load(join(dist, entry));
}

describe('the CommonJS build', () => {
  it('has no dynamic import() in any .cjs file', () => {
    const files = cjsFiles();
    expect(files.map((file) => file.slice(dist.length + 1)).sort()).toEqual(
      expect.arrayContaining([
        'index.cjs',
        'mock/index.cjs',
        'msw.cjs',
        'schemas.cjs',
        'ai.cjs',
        'conformance/index.cjs',
      ]),
    );
    for (const file of files) {
      const code = readFileSync(file, 'utf8');
      expect(code.match(/.{0,60}\bimport\s*\(.{0,60}/g) ?? [], file).toEqual([]);
    }
  });

  it('runs a client against the in-process mock where import() fails: calls, a tool approval, a schema check', async () => {
    const sdk = vmRequire('index.cjs') as typeof Sdk;
    const { createMock } = vmRequire('mock/index.cjs') as typeof Mock;
    expect(typeof (vmRequire('msw.cjs') as { mswHandlers: unknown }).mswHandlers).toBe('function');
    expect(Object.keys(vmRequire('schemas.cjs') as object)).toContain('SkillSchema');

    const mock = createMock();
    const client = new sdk.Client({ baseUrl: mock.url, token: 'mock-token', fetch: mock.fetch });
    await client.skills.create({ name: 'Required', instructions: 'Works.' });
    expect((await client.skills.list()).total).toBe(1);
    const missing = await client.skills.get(999).catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(sdk.NotFoundError);

    const chat = await client.chats.create({ permission_mode: 'manual' });
    const turn = await client.turns.run(
      chat.id,
      { content: '[[mock:tool_approval]]' },
      { onToolApproval: () => true },
    );
    expect(turn.status).toBe('completed');

    // The JSON Schema validator of elicitation answers, loaded by its first check.
    let checked = false;
    for await (const event of client.turns.stream(chat.id, { content: '[[mock:elicitation]]' })) {
      if (event.type !== 'action_required' || event.interaction.kind !== 'elicitation') continue;
      expect((await event.interaction.check({ email: 3 })).map((issue) => issue.field)).toEqual([
        'content.email',
      ]);
      await event.interaction.decline();
      checked = true;
    }
    expect(checked).toBe(true);
  });

  it('starts and stops the mock over HTTP where import() fails', async () => {
    const sdk = vmRequire('index.cjs') as typeof Sdk;
    const { startMockServer } = vmRequire('mock/index.cjs') as typeof Mock;
    const server = await startMockServer({ port: 0, inspector: true });
    try {
      const client = new sdk.Client({ baseUrl: server.url, token: 'mock-token' });
      expect((await client.skills.list()).total).toBe(0);
    } finally {
      await server.close();
    }
  });
});
