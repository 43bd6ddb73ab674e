import { execFile } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

// `npm run example -- NAME` (scripts/example.mjs, after building when dist/ is stale): one command, its own
// convo-mock.
const root = join(import.meta.dirname, '..', '..');
const run = promisify(execFile);
const script = join(root, 'scripts', 'example.mjs');
const env = { ...process.env, CONVO_BASE_URL: '', CONVO_API_TOKEN: '', CONVO_LOG: '' };

describe('npm run example', () => {
  it('runs the named example against a convo-mock it starts, and stops that mock', async () => {
    const { stdout, stderr } = await run(process.execPath, [script, 'sync-turn'], {
      cwd: root,
      env,
      timeout: 50_000, // a hang guard, below the test's own timeout (vitest.config.ts)
    });
    expect(stderr).toMatch(/examples\/sync-turn\.ts against convo-mock at http:\/\/127\.0\.0\.1:\d+/);
    expect(stdout).toMatch(/status: completed, tokens: \d+/);
  });

  it('builds the package only when dist/ is missing or older than src/: a fresh one is used as it is', async () => {
    const scripts = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts;
    expect(scripts.example).toBe('node scripts/dist.mjs build && node scripts/example.mjs');
    const built = statSync(join(root, 'dist', 'index.js')).mtimeMs;
    const { stderr } = await run(process.execPath, [join(root, 'scripts', 'dist.mjs'), 'build'], {
      cwd: root,
    });
    expect(stderr).toBe('');
    expect(statSync(join(root, 'dist', 'index.js')).mtimeMs).toBe(built);
  });

  it('lists the examples and exits 2 for an unknown name', async () => {
    const failure = await run(process.execPath, [script, 'nope'], { cwd: root, env }).catch(
      (e: unknown) => e,
    );
    expect(failure).toMatchObject({ code: 2 });
    const { stderr } = failure as { stderr: string };
    expect(stderr).toContain('no example "nope"');
    expect(stderr).toMatch(/\n {2}stream-turn\n/);
  });
});
