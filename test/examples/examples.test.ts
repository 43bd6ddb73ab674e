import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Every example runs as a user would run it: the built package, the convo-mock server, the two variables.
const root = join(import.meta.dirname, '..', '..');
const run = promisify(execFile);
let mock: ChildProcess;
let baseUrl: string;

beforeAll(async () => {
  mock = spawn(process.execPath, [join(root, 'dist/mock/cli.js'), '--port', '0'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  baseUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('convo-mock printed no URL')), 30_000);
    mock.stdout?.on('data', (chunk: Buffer) => {
      const match = /http:\/\/127\.0\.0\.1:\d+/.exec(chunk.toString());
      if (match) {
        clearTimeout(timer);
        resolve(match[0]);
      }
    });
  });
});

afterAll(() => {
  mock?.kill();
});

/** Each example and what its output must show. */
const EXAMPLES: Array<[file: string, expected: RegExp[]]> = [
  ['sync-turn.ts', [/status: completed, tokens: \d+, key: [0-9a-f-]{36}/]],
  ['stream-turn.ts', [/\[restarted\]/, /completed: \d+ characters, \d+ tokens/]],
  ['tool-approval.ts', [/approving github\/search/, /completed; tools run: search/]],
  ['elicitation.ts', [/asked: /, /completed: /, /refused before sending: content\.email: is required/]],
  [
    'cancel-stream.ts',
    [/cancel delivered: true/, /cancelled with partial content: "(\S+ ){4}/, /second cancel: false/],
  ],
  [
    'skills.ts',
    [/created #\d+ \(personal, public, active: true\)/, /toggled: active false/, /deleted \{ id: \d+ \}/],
  ],
  ['page-chats.ts', [/page 1: 2 of \d+ chats, more: true/, /\d+ chats in all/]],
  [
    'recovery.ts',
    [
      /first attempt: completed/,
      /same key: true/,
      /failed downstream: message \d+/,
      /streamed turn failed: upstream_error, retryable with a new key: false/,
    ],
  ],
  ['relay.ts', [/relayed completed turn #\d+: \d+ words/]],
];

describe('examples run against convo-mock', () => {
  it.each(EXAMPLES)('%s', async (file, expected) => {
    const { stdout } = await run(process.execPath, [join(root, 'examples', file)], {
      cwd: root,
      env: { ...process.env, CONVO_BASE_URL: baseUrl, CONVO_API_TOKEN: 'mock-token' },
      timeout: 50_000, // a hang guard, below the test's own timeout (vitest.config.ts)
    });
    for (const pattern of expected) expect(stdout).toMatch(pattern);
  });
});
