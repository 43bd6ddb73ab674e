// Where the bytes of the one-file browser app of scripts/check-size.mjs are: minified bytes per source file
// (esbuild's metafile) and per package, and the gzipped bytes each package adds (the app bundled with it
// minus the app with it left out). Usage: node bench/tools/bundle-modules.mjs [N]
import { BUDGETS, bundle, gzip, packageOf } from '../../scripts/check-size.mjs';

const limit = Number(process.argv[2] ?? 40);
const code = BUDGETS[0].code;

const whole = await bundle(code, [], false);
const total = gzip(whole.outputFiles[0].contents);
const inputs = Object.entries(Object.values(whole.metafile.outputs)[0].inputs)
  .map(([input, { bytesInOutput }]) => ({
    input: input.replace(/^.*node_modules\//, ''),
    name: packageOf(input),
    bytes: bytesInOutput,
  }))
  .sort((a, b) => b.bytes - a.bytes);
const minified = inputs.reduce((sum, { bytes }) => sum + bytes, 0);
console.log(`one file: ${(total / 1000).toFixed(1)} KB gzipped, ${(minified / 1000).toFixed(1)} KB minified`);
const byPackage = new Map();
for (const { name, bytes } of inputs) byPackage.set(name, (byPackage.get(name) ?? 0) + bytes);
for (const [name, bytes] of [...byPackage].sort((a, b) => b[1] - a[1])) {
  const without =
    name === 'convo-sdk' ? total : gzip((await bundle(code, [name], false)).outputFiles[0].contents);
  const added = name === 'convo-sdk' ? '' : `, adds ${((total - without) / 1000).toFixed(1)} KB gzipped`;
  console.log(`  ${name}: ${(bytes / 1000).toFixed(1)} KB minified${added}`);
}
const byFolder = new Map();
for (const { input, name, bytes } of inputs) {
  const folder = input.startsWith('src/') ? input.split('/').slice(0, -1).join('/') : name;
  byFolder.set(folder, (byFolder.get(folder) ?? 0) + bytes);
}
console.log('minified bytes by folder:');
for (const [folder, bytes] of [...byFolder].sort((a, b) => b[1] - a[1]))
  console.log(`  ${(bytes / 1000).toFixed(1).padStart(5)} KB  ${folder}`);
console.log(`largest ${limit} files (minified):`);
for (const { input, bytes } of inputs.slice(0, limit))
  console.log(`  ${(bytes / 1000).toFixed(1).padStart(5)} KB  ${input}`);
