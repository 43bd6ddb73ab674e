// Self time of a .cpuprofile summed by package (node_modules/<name>), the SDK's dist, and Node itself.
import { readFileSync } from 'node:fs';

const profile = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const total = new Map();
for (let i = 0; i < profile.samples.length; i++) {
  const { url, functionName } = byId.get(profile.samples[i]).callFrame;
  const key =
    /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1] ??
    (url.includes('/dist/') ? 'convo-sdk dist' : url.startsWith('node:') ? 'node' : url ? url : functionName);
  total.set(key, (total.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0));
}
const sum = [...total.values()].reduce((a, b) => a + b, 0);
for (const [key, us] of [...total].sort((a, b) => b[1] - a[1]).slice(0, 20)) {
  console.log(
    `${((100 * us) / sum).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(6)} ms  ${key}`,
  );
}
