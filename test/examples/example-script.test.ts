import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

// `npm run example -- NAME` (scripts/example.mjs, after the build): one command, its own convo-mock.
const root = join(import.meta.dirname, '..', '..');
const run = promisify(execFile);
const script = join(root, 'scripts', 'example.mjs');
const env = { ...process.env, CONVO_BASE_URL: '', CONVO_API_TOKEN: '', CONVO_LOG: '' };

describe('npm run example', () => {
  it('runs the named example against a convo-mock it starts, and stops that mock', async () => {
    const { stdout, stderr } = await run(process.execPath, [script, 'sync-turn'], {
      cwd: root,
      env,
      timeout: 30_000,
    });
    expect(stderr).toMatch(/examples\/sync-turn\.ts against convo-mock at http:\/\/127\.0\.0\.1:\d+/);
    expect(stdout).toMatch(/status: completed, tokens: \d+/);
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
