import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The packed tarball, installed into a fresh project, imported the ways integrators import it.
const root = join(import.meta.dirname, '..', '..');
const node = process.execPath;
let project: string;
let installOutput: string;

beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), 'convo-sdk-pack-'));
  // dist/ as built, not rebuilt (a build empties dist/ under the other test files); fails when it is stale.
  const tarball = basename(
    execFileSync(node, [join(root, 'scripts', 'dist.mjs'), 'pack', project], { encoding: 'utf8' }).trim(),
  );
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true }));
  const install = spawnSync(
    'npm',
    // `ai`: convo-sdk/ai's route and page transport are built on its values (an optional peer, as msw).
    ['install', '--no-audit', '--no-fund', '--prefer-offline', `./${tarball}`, 'msw@3', 'ai@^7'],
    { cwd: project, encoding: 'utf8' },
  );
  if (install.status !== 0) throw new Error(`npm install failed:\n${install.stderr}`);
  installOutput = install.stdout + install.stderr;
}, 180_000);

afterAll(() => rmSync(project, { recursive: true, force: true }));

const program = (load: (what: string) => string) => `
const { Client, ApiError, ValidationError } = ${load('convo-sdk')};
const { createMock } = ${load('convo-sdk/mock')};
const { mswHandlers } = ${load('convo-sdk/msw')};
const { ConvoChatTransport } = ${load('convo-sdk/ai')};
const { runConformance } = ${load('convo-sdk/conformance')};
(async () => {
  const mock = createMock();
  const client = new Client({ baseUrl: mock.url, token: 'mock-token', fetch: mock.fetch });
  const skill = await client.skills.create({ name: 'Packed', instructions: 'Works.' });
  const page = await client.skills.list();
  // convo-sdk/ai uses the package's own entry: its errors are the root's classes.
  const refused = await new ConvoChatTransport({ client }).sendMessages({ chatId: 'x', messages: [] }).catch((e) => e);
  const ai = refused instanceof ValidationError;
  console.log(JSON.stringify({ name: skill.name, total: page.total, handlers: mswHandlers(mock).length > 0, api: typeof ApiError, ai, conformance: typeof runConformance }));
})();
`;

describe('the packed package', () => {
  it('installs without an install-scripts warning: the manifest has no install-time script', () => {
    const manifest = JSON.parse(
      readFileSync(join(project, 'node_modules', 'convo-sdk', 'package.json'), 'utf8'),
    );
    for (const script of ['preinstall', 'install', 'postinstall', 'prepare']) {
      expect(manifest.scripts?.[script]).toBeUndefined();
    }
    expect(installOutput).not.toMatch(/install-scripts|convo-sdk@[^ ]* \(/);
  });

  /** What `program` prints, loaded either way. */
  const PROGRAM_OUTPUT = {
    name: 'Packed',
    total: 1,
    handlers: true,
    api: 'function',
    ai: true,
    conformance: 'function',
  };

  it('imports from ESM: convo-sdk, convo-sdk/mock, convo-sdk/msw, convo-sdk/ai and convo-sdk/conformance', () => {
    writeFileSync(
      join(project, 'esm.mjs'),
      program((what) => `await import('${what}')`).replace('(async () => {', 'await (async () => {'),
    );
    const out = JSON.parse(execFileSync(node, ['esm.mjs'], { cwd: project, encoding: 'utf8' }));
    expect(out).toEqual(PROGRAM_OUTPUT);
  });

  it('requires from CJS: convo-sdk, convo-sdk/mock, convo-sdk/msw, convo-sdk/ai and convo-sdk/conformance', () => {
    writeFileSync(
      join(project, 'cjs.cjs'),
      program((what) => `require('${what}')`),
    );
    const out = JSON.parse(execFileSync(node, ['cjs.cjs'], { cwd: project, encoding: 'utf8' }));
    expect(out).toEqual(PROGRAM_OUTPUT);
  });

  /** An integrator's program: strict settings, options that may be undefined, typos that must not compile. */
  const consumer = `import { Client, type ClientOptions, type Skill, type Turn, ValidationError } from 'convo-sdk';
import { createMock } from 'convo-sdk/mock';
import { SkillSchema } from 'convo-sdk/schemas';
import { type ConformanceReport, runConformance } from 'convo-sdk/conformance';

declare const maybeUndefined: string | undefined;
const mock = createMock();
const options: ClientOptions = { baseUrl: maybeUndefined, token: 'mock-token', fetch: mock.fetch, timeout: undefined };
const client = new Client(options);
export async function main(signal: AbortSignal | undefined): Promise<string> {
  const skill: Skill = await client.skills.get(1, { signal, timeout: undefined });
  const parsed = SkillSchema.safeParse(skill);
  // @ts-expect-error a misspelled body field does not compile
  await client.chats.create({ permision_mode: 'manual' });
  const turn: Turn = await client.turns.send('3f2b1c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d', { content: 'x', metadata: undefined });
  // @ts-expect-error a misspelled result field does not compile
  void turn.contnet;
  const level: string = skill.level;
  const first = (await client.chats.list()).items[0];
  const report: ConformanceReport = await runConformance({ url: mock.url, tokens: { main: 'mock-token' }, only: ['6'] });
  return [level, parsed.success, first?.name ?? '', ValidationError.name, report.ok].join();
}
`;

  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  const strict = ['--noEmit', '--strict', '--exactOptionalPropertyTypes', '--noUncheckedIndexedAccess'];
  // One compiler run per resolution; a .cts file resolves through the `require` conditions, the others
  // through `import`. The nodenext run checks the shipped declarations themselves too (.d.ts and .d.cts, no
  // skipLibCheck); the others check what a consumer sees of them, with skipLibCheck (it takes a third of the time).
  // node10 is what TypeScript 5.x picks for `module: commonjs` (6.0 deprecates it): the subpaths resolve
  // through `typesVersions` there.
  const settings: Array<[resolution: string, module: string, files: string[], libCheck: boolean]> = [
    ['node10', 'commonjs', ['node10.ts'], false],
    ['bundler', 'preserve', ['bundler.ts'], false],
    ['node16', 'node16', ['node16.mts', 'node16.cts'], false],
    ['nodenext', 'nodenext', ['nodenext.mts', 'nodenext.cts'], true],
  ];
  for (const [resolution, module, files, libCheck] of settings) {
    it(`type-checks a consumer under strict, exactOptionalPropertyTypes, noUncheckedIndexedAccess, moduleResolution ${resolution}`, () => {
      for (const file of files) writeFileSync(join(project, file), consumer);
      const args = [
        tsc,
        ...strict,
        '--module',
        module,
        '--moduleResolution',
        resolution,
        '--target',
        'es2022',
      ];
      if (!libCheck) args.push('--skipLibCheck');
      if (resolution === 'node10') args.push('--ignoreDeprecations', '6.0');
      const typeRoots = join(root, 'node_modules', '@types');
      const result = spawnSync(
        node,
        [...args, '--lib', 'es2023,dom', '--typeRoots', typeRoots, '--types', 'node', ...files],
        { cwd: project, encoding: 'utf8' },
      );
      expect(result.stdout, 'tsc reported errors').toBe('');
      expect(result.status).toBe(0);
    }, 180_000);
  }

  it('ships no internals and no schemas in the root declarations; the schemas in convo-sdk/schemas', () => {
    const dist = join(project, 'node_modules', 'convo-sdk', 'dist');
    const rootTypes = readFileSync(join(dist, 'index.d.ts'), 'utf8');
    const exported = [...rootTypes.matchAll(/^export (?:type )?\{([^}]*)\}/gm)].flatMap((m) =>
      m[1]!.split(',').map((name) => name.trim().split(' as ').at(-1)!),
    );
    expect(exported).toContain('Client');
    expect(exported.filter((name) => name.endsWith('Schema') || name === 'EVENT_SCHEMAS')).toEqual([]);
    expect(exported).not.toContain('Transport');
    expect(rootTypes).not.toMatch(/declare class Transport|answer\(chatId|AnswerContext/);
    const schemaTypes = readFileSync(join(dist, 'schemas.d.ts'), 'utf8');
    expect(schemaTypes).toMatch(/SkillSchema/);
    expect(schemaTypes).toMatch(/TurnStreamBodySchema/);
  });

  it('ships convo-sdk/openapi.json, resolvable by its subpath', () => {
    const out = execFileSync(node, ['-e', "console.log(require('convo-sdk/openapi.json').openapi)"], {
      cwd: project,
      encoding: 'utf8',
    });
    expect(out.trim()).toBe('3.1.0');
  });

  it('runs the convo-conformance bin against the convo-mock bin: it passes, exit status 0', async () => {
    const env = { ...process.env, PATH: `${join(node, '..')}:${process.env.PATH}` };
    const mock = spawn(join(project, 'node_modules', '.bin', 'convo-mock'), ['--port', '0'], {
      cwd: project,
      env,
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        mock.stdout.on('data', (chunk: Buffer) => {
          const match = /http:\/\/127\.0\.0\.1:\d+/.exec(chunk.toString());
          if (match) resolve(match[0]);
        });
        mock.once('exit', (code) => reject(new Error(`convo-mock exited with ${code}`)));
      });
      const run = spawnSync(
        join(project, 'node_modules', '.bin', 'convo-conformance'),
        ['--url', url, '--token', 'mock-token'],
        { cwd: project, env, encoding: 'utf8' },
      );
      expect(run.stdout).toMatch(/ 0 failed, /);
      expect(run.status).toBe(0);
    } finally {
      mock.kill();
    }
  });

  it('runs the convo-mock bin, which prints its URL and answers 401 without a token', async () => {
    const child = spawn(
      join(project, 'node_modules', '.bin', 'convo-mock'),
      ['--port', '0', '--token', 'a=skills:read'],
      {
        cwd: project,
        env: { ...process.env, PATH: `${join(node, '..')}:${process.env.PATH}` },
      },
    );
    try {
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => {
          const match = /http:\/\/127\.0\.0\.1:\d+/.exec(chunk.toString());
          if (match) resolve(match[0]);
        });
        child.once('exit', (code) => reject(new Error(`convo-mock exited with ${code}`)));
      });
      const withToken = await fetch(`${url}/api/v1/skills`, { headers: { authorization: 'Bearer a' } });
      expect(withToken.status).toBe(200);
      expect(await withToken.json()).toMatchObject({
        status: 'success',
        message_code: 'api_v1_ok',
        data: [],
      });
      expect((await fetch(`${url}/api/v1/skills`)).status).toBe(401);
    } finally {
      child.kill();
    }
  });
});
