// Self time of a .cpuprofile by source file of the SDK's build (through the `// src/...` markers esbuild
// writes), with module loading (any sample under a loader: Node's lazy internals, undici, an import())
// counted apart: node bench/tools/by-file.mjs FILE [N]
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const profile = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const limit = Number(process.argv[3] ?? 25);
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
const LOADING =
  /compileForInternalLoader|compileSourceTextModule|compileFunction|__require|^evaluate$|^link$/;

/** The source file of each line of a built file, from the markers before each module's code. */
const sources = new Map();
function sourceOf(url, line) {
  if (!sources.has(url)) {
    const markers = [];
    readFileSync(fileURLToPath(url), 'utf8')
      .split('\n')
      .forEach((text, i) => {
        const match = /^\/\/ (?:\.\.\/main\/)?((?:src|node_modules)\/\S+)$/.exec(text);
        if (match) markers.push([i, match[1].replace(/^node_modules\/((?:@[^/]+\/)?[^/]+).*/, '$1')]);
      });
    sources.set(url, markers);
  }
  let found = 'dist';
  for (const [at, file] of sources.get(url)) if (at <= line) found = file;
  return found;
}

const total = new Map();
let sum = 0;
for (let i = 0; i < profile.samples.length; i++) {
  const us = profile.timeDeltas[i] ?? 0;
  sum += us;
  let key;
  for (let id = profile.samples[i]; id !== undefined && !key; id = parent.get(id))
    if (LOADING.test(byId.get(id).callFrame.functionName)) key = 'module loading';
  const { url, functionName, lineNumber } = byId.get(profile.samples[i]).callFrame;
  key ??= url.includes('/dist/')
    ? sourceOf(url, lineNumber)
    : url.startsWith('node:')
      ? `node:${url.split('/').slice(-1)[0]}`
      : url
        ? url.split('/').slice(-2).join('/')
        : functionName;
  total.set(key, (total.get(key) ?? 0) + us);
}
for (const [key, us] of [...total].sort((a, b) => b[1] - a[1]).slice(0, limit)) {
  console.log(
    `${((100 * us) / sum).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(1).padStart(6)} ms  ${key}`,
  );
}
console.log(`total ${(sum / 1000).toFixed(0)} ms`);
