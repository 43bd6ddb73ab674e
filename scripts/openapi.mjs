// Writes dist/openapi.json (`convo-sdk/openapi.json`): bundles scripts/openapi.ts with the contract it
// reads, runs it, writes its document. Part of `npm run build`, after tsup (which empties dist/).
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = resolve(fileURLToPath(import.meta.url), '../..');
const out = join(tmpdir(), `convo-sdk-openapi-${process.pid}.mjs`);
try {
  await build({
    entryPoints: [join(root, 'scripts', 'openapi.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: out,
    logLevel: 'warning',
  });
  const { openApiDocument } = await import(pathToFileURL(out).href);
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  mkdirSync(join(root, 'dist'), { recursive: true });
  writeFileSync(join(root, 'dist', 'openapi.json'), `${JSON.stringify(openApiDocument(version), null, 2)}\n`);
} finally {
  rmSync(out, { force: true });
}
