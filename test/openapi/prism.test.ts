import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../../scripts/openapi.js';
import { Client } from '../../src/client.js';
import { ENDPOINTS } from '../../src/contract/endpoints.js';
import { failedCalls, JSON_CALLS } from '../support/client-calls.js';
import { CLIENT_ENDPOINTS } from '../support/client-endpoints.js';

// The package's own Client against `prism mock` of the document: every JSON answer Prism makes from the
// document alone must pass the Client's checks. Static mode answers from the schemas' examples and bounds;
// dynamic mode answers random values the schemas allow.
const root = join(import.meta.dirname, '..', '..');
const prismBin = createRequire(import.meta.url).resolve('@stoplight/prism-cli/dist/index.js');
const dir = mkdtempSync(join(tmpdir(), 'convo-openapi-'));
const documentPath = join(dir, 'openapi.json');
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
writeFileSync(documentPath, JSON.stringify(openApiDocument(version)));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The longest Prism may take to start: it fails the test with what it printed. */
const START_BOUND_MS = 45_000;

interface Prism {
  url: string;
  child: ChildProcess;
}

async function startPrism(dynamic: boolean): Promise<Prism> {
  // `--errors`: a request or answer that breaks the document is an error answer, which the Client throws.
  // A fixed seed, so that the dynamic answers are the same on every run.
  const mode = dynamic ? ['-d', '--seed', 'convo-sdk'] : [];
  const args = [prismBin, 'mock', '-h', '127.0.0.1', '-p', '0', '--errors', ...mode, documentPath];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`prism did not start within ${START_BOUND_MS} ms:\n${output}`));
    }, START_BOUND_MS);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Prism is listening on (http:\/\/[\d.:]+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`prism exited (${code}):\n${output}`));
    });
  });
  return { url, child };
}

async function stopPrism(prism: Prism) {
  prism.child.kill();
  if (prism.child.exitCode === null) await once(prism.child, 'exit');
}

async function runAll(url: string): Promise<Record<string, string>> {
  return failedCalls(new Client({ baseUrl: url, token: 'prism-token', maxRetries: 0, timeout: 30_000 }));
}

describe('prism mock of the document', () => {
  it('covers every JSON endpoint of the client', () => {
    expect(Object.keys(JSON_CALLS).sort()).toEqual(
      CLIENT_ENDPOINTS.filter((n) => !('stream' in ENDPOINTS[n])).sort(),
    );
  });

  it('static: every call validates', async () => {
    const prism = await startPrism(false);
    try {
      expect(await runAll(prism.url)).toEqual({});
    } finally {
      await stopPrism(prism);
    }
  });

  it('dynamic: all but the three lists validate; a list fails only on the page no document ties to the query', async () => {
    const prism = await startPrism(true);
    try {
      const failures = await runAll(prism.url);
      expect(Object.keys(failures).sort()).toEqual(['chats.list', 'chats.messages', 'skills.list']);
      for (const failure of Object.values(failures))
        expect(failure).toMatch(
          /^ResponseValidationError: .* at meta\.page: page 1 was asked for, page \d+ came$/,
        );
    } finally {
      await stopPrism(prism);
    }
  });
});
