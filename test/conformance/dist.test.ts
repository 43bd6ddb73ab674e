import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

// The built kit refuses with the package's own error classes: `convo-sdk/conformance` reaches them through
// the package's entry (`convo-sdk`), so an app's `instanceof ValidationError` holds whichever build it loads.
const root = join(import.meta.dirname, '..', '..');
const require = createRequire(import.meta.url);
type Loaded = Record<string, unknown>;
const builds: Array<[build: string, load: (entry: string) => Promise<Loaded>]> = [
  ['Node ESM (dist/*.js)', (entry) => import(pathToFileURL(join(root, 'dist', `${entry}.js`)).href)],
  ['CommonJS (dist/*.cjs)', async (entry) => require(join(root, 'dist', `${entry}.cjs`)) as Loaded],
];

beforeAll(() => {
  execFileSync(process.execPath, [join(root, 'scripts', 'dist.mjs'), 'check'], { stdio: 'pipe' });
});

describe.each(builds)('the built conformance kit, %s', (_build, load) => {
  it("rejects unusable options with the root's ValidationError, a ConvoError", async () => {
    const sdk = await load('index');
    const kit = await load('conformance/index');
    const runConformance = kit.runConformance as (options: unknown) => Promise<unknown>;
    const error: unknown = await runConformance({ url: 'ftp://x', tokens: { main: 'SECRET-token' } }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(sdk.ValidationError as new () => Error);
    expect(error).toBeInstanceOf(sdk.ConvoError as new () => Error);
    expect(error).toMatchObject({ field: 'url' });
    expect(String((error as Error).message)).not.toContain('SECRET');
  });
});
