import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The packed tarball, installed into a fresh project, imported the ways integrators import it.
const root = join(import.meta.dirname, '..', '..');
const node = process.execPath;
let project: string;
let installOutput: string;

function npm(args: string[], cwd: string): string {
  return execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), 'convo-sdk-pack-'));
  npm(['pack', '--pack-destination', project, '--silent'], root);
  const tarball = readdirSync(project).find((f) => f.endsWith('.tgz'))!;
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true }));
  const install = spawnSync(
    'npm',
    ['install', '--no-audit', '--no-fund', '--prefer-offline', `./${tarball}`, 'msw@3'],
    { cwd: project, encoding: 'utf8' },
  );
  if (install.status !== 0) throw new Error(`npm install failed:\n${install.stderr}`);
  installOutput = install.stdout + install.stderr;
}, 180_000);

afterAll(() => rmSync(project, { recursive: true, force: true }));

const program = (load: (what: string) => string) => `
const { Client, ApiError } = ${load('convo-sdk')};
const { createMock } = ${load('convo-sdk/mock')};
const { mswHandlers } = ${load('convo-sdk/msw')};
(async () => {
  const mock = createMock();
  const client = new Client({ baseUrl: mock.url, token: 'mock-token', fetch: mock.fetch });
  const skill = await client.skills.create({ name: 'Packed', instructions: 'Works.' });
  const page = await client.skills.list();
  console.log(JSON.stringify({ name: skill.name, total: page.total, handlers: mswHandlers(mock).length > 0, api: typeof ApiError }));
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

  it('imports from ESM: convo-sdk, convo-sdk/mock and convo-sdk/msw', () => {
    writeFileSync(
      join(project, 'esm.mjs'),
      program((what) => `await import('${what}')`).replace('(async () => {', 'await (async () => {'),
    );
    const out = JSON.parse(execFileSync(node, ['esm.mjs'], { cwd: project, encoding: 'utf8' }));
    expect(out).toEqual({ name: 'Packed', total: 1, handlers: true, api: 'function' });
  });

  it('requires from CJS: convo-sdk, convo-sdk/mock and convo-sdk/msw', () => {
    writeFileSync(
      join(project, 'cjs.cjs'),
      program((what) => `require('${what}')`),
    );
    const out = JSON.parse(execFileSync(node, ['cjs.cjs'], { cwd: project, encoding: 'utf8' }));
    expect(out).toEqual({ name: 'Packed', total: 1, handlers: true, api: 'function' });
  });

  it('type-checks an ESM consumer with the shipped declarations', () => {
    writeFileSync(
      join(project, 'typed.mts'),
      `import { Client, type Skill } from 'convo-sdk';\nimport { createMock } from 'convo-sdk/mock';\n` +
        `const mock = createMock();\nconst client = new Client({ baseUrl: mock.url, token: 'mock-token', fetch: mock.fetch });\n` +
        `const skill: Promise<Skill> = client.skills.get(1);\nvoid skill;\n`,
    );
    const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
    execFileSync(node, [tsc, '--noEmit', '--strict', '--module', 'nodenext', '--skipLibCheck', 'typed.mts'], {
      cwd: project,
      encoding: 'utf8',
    });
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
