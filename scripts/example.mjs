// `npm run example -- NAME`: runs examples/NAME.ts against a fresh convo-mock on a free loopback port, with
// CONVO_BASE_URL and CONVO_API_TOKEN set, on the Node npm runs (the pinned one, which strips types).
// Without a NAME, or with an unknown one, lists the examples and exits 2. Exits with the example's code.
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const examples = readdirSync(join(root, 'examples'))
  .filter((file) => file.endsWith('.ts') && file !== 'demo.ts')
  .map((file) => file.slice(0, -'.ts'.length))
  .sort();

const name = process.argv[2]?.replace(/\.ts$/, '');
if (!name || !examples.includes(name)) {
  if (name) console.error(`no example "${name}"`);
  console.error(`usage: npm run example -- NAME, where NAME is one of:\n  ${examples.join('\n  ')}`);
  process.exit(2);
}

const TOKEN = 'mock-token';
const mock = spawn(
  process.execPath,
  [join(root, 'dist', 'mock', 'cli.js'), '--port', '0', '--token', TOKEN],
  {
    stdio: ['ignore', 'pipe', 'inherit'],
  },
);
const stopMock = () => mock.exitCode === null && mock.kill();
process.once('exit', stopMock);

const baseUrl = await new Promise((resolve, reject) => {
  const timer = setTimeout(() => reject(new Error('convo-mock printed no URL within 10 s')), 10_000);
  let output = '';
  mock.stdout.setEncoding('utf8').on('data', (chunk) => {
    output += chunk;
    const match = /http:\/\/[^\s]+/.exec(output);
    if (match) {
      clearTimeout(timer);
      resolve(match[0]);
    }
  });
  mock.once('exit', (code) => reject(new Error(`convo-mock exited with ${code} before printing its URL`)));
}).catch((error) => {
  console.error(error.message);
  process.exit(1);
});

console.error(`examples/${name}.ts against convo-mock at ${baseUrl}`);
const example = spawn(process.execPath, [join(root, 'examples', `${name}.ts`)], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, CONVO_BASE_URL: baseUrl, CONVO_API_TOKEN: TOKEN },
});
example.once('exit', (code, signal) => {
  stopMock();
  process.exitCode = code ?? (signal ? 1 : 0);
});
