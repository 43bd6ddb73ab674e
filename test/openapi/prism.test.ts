import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../../scripts/openapi.js';
import { Client } from '../../src/client.js';
import { ENDPOINT_DOCS } from '../../src/contract/endpoint-docs.js';
import { ENDPOINTS } from '../../src/contract/endpoints.js';
import { CLIENT_ENDPOINTS, type ClientEndpoint } from '../support/client-endpoints.js';

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

const chatId = '3fa85f64-5717-4562-b3fc-2c963f66afa6';
const example = <N extends ClientEndpoint>(name: N) =>
  (ENDPOINT_DOCS[name] as { example?: unknown }).example as never;

/** Every JSON endpoint the client calls, as the client calls it. */
const CALLS: Record<Exclude<ClientEndpoint, 'turns.stream'>, (client: Client) => Promise<unknown>> = {
  'skills.list': (c) => c.skills.list(),
  'skills.create': (c) => c.skills.create(example('skills.create')),
  'skills.get': (c) => c.skills.get(1),
  'skills.update': (c) => c.skills.update(1, example('skills.update')),
  'skills.toggle': (c) => c.skills.toggle(1),
  'skills.delete': (c) => c.skills.delete(1),
  'chats.list': (c) => c.chats.list(),
  'chats.create': (c) => c.chats.create(example('chats.create')),
  'chats.get': (c) => c.chats.get(chatId),
  'chats.update': (c) => c.chats.update(chatId, example('chats.update')),
  'chats.delete': (c) => c.chats.delete(chatId),
  'chats.messages': (c) => c.chats.messages(chatId),
  'chats.catalog': (c) => c.chats.catalog(),
  'turns.send': (c) => c.turns.send(chatId, example('turns.send')),
  'turns.cancel': (c) => c.turns.cancel(chatId, example('turns.cancel')),
  'actions.approveTool': (c) => c.actions.approveTool(chatId, example('actions.approveTool')),
  'actions.respondPlan': (c) => c.actions.respondPlan(chatId, example('actions.respondPlan')),
  'actions.respondElicitation': (c) =>
    c.actions.respondElicitation(chatId, example('actions.respondElicitation')),
  'actions.cancelAuth': (c) => c.actions.cancelAuth(chatId, example('actions.cancelAuth')),
};

async function runAll(url: string): Promise<Record<string, string>> {
  const client = new Client({ baseUrl: url, token: 'prism-token', maxRetries: 0, timeout: 30_000 });
  const failures: Record<string, string> = {};
  for (const [name, call] of Object.entries(CALLS)) {
    try {
      await call(client);
    } catch (error) {
      failures[name] = String(error);
    }
  }
  return failures;
}

describe('prism mock of the document', () => {
  it('covers every JSON endpoint of the client', () => {
    expect(Object.keys(CALLS).sort()).toEqual(
      CLIENT_ENDPOINTS.filter((n) => !('stream' in ENDPOINTS[n])).sort(),
    );
  });

  it('static: all 19 calls validate', async () => {
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
