import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/conformance/command.js';
import { Context } from '../../src/conformance/context.js';
import { runConformance } from '../../src/conformance/index.js';
import { streamed, synced } from '../../src/conformance/plain-turns.js';
import { Wire } from '../../src/conformance/wire.js';
import { type CommandServer, startCommandServer } from '../support/command-server.js';
import { FAULTS, startFaultProxy } from './fault-proxy.js';
import { holdings } from './holdings.js';

// convo-mock started as an external server, as `npm run test:external` starts it: the kit passes against it,
// and fails, naming the section, against a proxy that breaks the contract in one chosen way.
const root = join(import.meta.dirname, '..', '..');
const run = promisify(execFile);
const tokens = { main: 'mock-token', other: 'other-token', limited: 'limited-token' };
let mock: CommandServer;

/**
 * The commands docs/conformance.md gives against the reference mock, as written (a `sh` block's lines
 * joined at their `\`, or an inline span): each as its environment, its command and its arguments.
 */
const documented = (() => {
  const doc = readFileSync(join(root, 'docs', 'conformance.md'), 'utf8');
  const lines = [
    ...[...doc.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((match) =>
      (match[1] ?? '').replace(/\\\n\s*/g, '').split('\n'),
    ),
    ...[...doc.matchAll(/`([^`\n]*npx convo-[^`\n]*)`/g)].map((match) => match[1] ?? ''),
  ];
  return lines
    .map((line) => line.trim().split(/\s+/))
    .filter((words) => words.includes('npx') && words.some((word) => word.startsWith('convo-')))
    .map((words) => {
      const at = words.indexOf('npx');
      const env = Object.fromEntries(words.slice(0, at).map((word) => word.split('=') as [string, string]));
      return { env, command: words[at + 1] ?? '', args: words.slice(at + 2), text: words.join(' ') };
    });
})();
const [mockCommand] = documented.filter(
  ({ command, args }) => command === 'convo-mock' && args.includes('--allow'),
);

beforeAll(async () => {
  await run(process.execPath, [join(root, 'scripts', 'dist.mjs'), 'check']);
  // The mock as the documented whole run starts it, on a free port.
  const args = mockCommand?.args.map((arg, index, all) => (all[index - 1] === '--port' ? '0' : arg)) ?? [];
  mock = await startCommandServer(
    `${JSON.stringify(process.execPath)} ${join(root, 'dist', 'mock', 'cli.js')}`,
    [...args, '--no-inspector'],
  );
});

afterAll(() => mock?.stop());

describe('conformance kit against convo-mock', () => {
  it('passes every check it runs, skips only what needs a scripted model (or a slower one), and leaves nothing behind', async () => {
    const report = await runConformance({ url: mock.url, tokens });
    expect(report.results.filter((result) => result.outcome === 'fail')).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.counts.pass).toBeGreaterThanOrEqual(27);
    expect(report.results.filter((r) => r.outcome === 'skip').map((r) => r.reason)).toEqual(
      Array(report.counts.skip).fill(
        expect.stringMatching(
          /^needs (a scripted model|an outage)|^the spec does not|\(a quick model\)$|--token restricted=|--outside-user/,
        ),
      ),
    );
    expect(report.requests).toBeLessThan(175);
    expect(await holdings(mock.url)).toEqual([[], [], [], 403]);
  });

  it('skips, naming the --token to give, what needs a second or a limited credential', async () => {
    const report = await runConformance({
      url: mock.url,
      tokens: { main: 'mock-token' },
      only: ['5', '2.5'],
    });
    const skipped = report.results
      .filter((result) => result.outcome === 'skip')
      .map((result) => result.reason);
    expect(skipped).toEqual([
      'needs a credential with chat:read only: --token limited=TOKEN',
      'needs a second credential (chat:read, chat:write): --token other=TOKEN',
      'needs a second credential (chat:read, chat:write): --token other=TOKEN',
      'needs a second credential (chat:read, chat:write): --token other=TOKEN',
      'needs a credential with chat:read only: --token limited=TOKEN',
    ]);
    expect(report.ok).toBe(true);
  });

  it('--only runs the sections named and their subsections', async () => {
    const report = await runConformance({ url: mock.url, tokens, only: ['7'] });
    expect(new Set(report.results.map((result) => result.section))).toEqual(
      new Set(['7.1', '7.2', '7.3', '7.4', '7.5', '7.6']),
    );
  });

  it('stays within its request bound, and still cleans up what it created', async () => {
    const report = await runConformance({ url: mock.url, tokens, maxRequests: 12 });
    expect(
      report.results.some((result) => result.reason === "the run's bound of 12 requests was reached"),
    ).toBe(true);
    expect(await holdings(mock.url)).toEqual([[], [], [], 403]);
  });

  it('stopped by its signal mid-run, skips the checks left and still deletes what it created', async () => {
    const stop = new AbortController();
    let sent = 0;
    const counting: typeof fetch = (input, init) => {
      if (++sent === 20) stop.abort();
      return fetch(input, init);
    };
    const report = await runConformance({ url: mock.url, tokens, signal: stop.signal, fetch: counting });
    expect(
      report.results.filter((r) => r.reason === 'the run was stopped or ran out of time').length,
    ).toBeGreaterThan(5);
    expect(await holdings(mock.url)).toEqual([[], [], [], 403]);
  });

  it('refuses an unusable URL or token with a ValidationError that does not show the token', async () => {
    await expect(runConformance({ url: 'ftp://x', tokens })).rejects.toMatchObject({ field: 'url' });
    const error = await runConformance({ url: mock.url, tokens: { main: 'secret token' } }).catch((e) => e);
    expect(error).toMatchObject({ name: 'ValidationError', field: 'tokens.main' });
    expect(error.message).not.toContain('secret');
  });
});

/** Runs the command in-process; resolves to its exit status and everything it wrote. */
async function command(argv: string[]): Promise<{ code: number; text: string }> {
  let text = '';
  const write = (line: string) => {
    text += `${line}\n`;
  };
  const code = await main(argv, { out: write, err: write });
  return { code, text };
}

describe('conformance kit against odd answers and unusable setups', () => {
  it('against a service answering 200 text/plain "ok" to everything, reports failures and deletes what it sent to', async () => {
    const calls: string[] = [];
    const stub = createServer((request, response) => {
      calls.push(`${request.method} ${request.url}`);
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.end('ok');
    });
    await new Promise<void>((resolve) => stub.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(stub.address() as AddressInfo).port}`;
      const report = await runConformance({ url, tokens });
      expect(report.ok).toBe(false);
      expect(report.counts.fail).toBeGreaterThan(10);
      const turns = calls.flatMap(
        (call) => /^POST \/api\/v1\/chats\/([0-9a-f-]{36})\/messages/.exec(call)?.[1] ?? [],
      );
      expect(turns.length).toBeGreaterThan(0);
      for (const id of turns) expect(calls).toContain(`DELETE /api/v1/chats/${id}`);
    } finally {
      stub.closeAllConnections();
      await new Promise((resolve) => stub.close(resolve));
    }
  });

  it('a check stopped by an error of its own is a failure showing the error and the last answer', async () => {
    // A Response whose headers cannot be read: the error happens inside the check, not at the service.
    const broken: typeof fetch = async () => ({ status: 200, headers: null }) as unknown as Response;
    const report = await runConformance({ url: 'http://svc/', tokens, only: ['4.1'], fetch: broken });
    expect(report.results[0]).toMatchObject({
      section: '4.1',
      outcome: 'fail',
      expected: '4.1 "create; answers 201 with the skill": an answer the check can read',
      got: expect.stringMatching(/^TypeError: /),
    });
  });

  it('when reads are answered 200 text/plain "ok", fails those checks, prints a report and leaves nothing behind', async () => {
    const proxy = await startFaultProxy(mock.url, (answer) =>
      answer.call.startsWith('GET ') ? { ...answer, contentType: 'text/plain', body: 'ok' } : answer,
    );
    try {
      const { code, text } = await command(['--url', proxy.url, '--token', 'mock-token']);
      expect(code).toBe(1);
      expect(text).toMatch(/^FAIL {2}8 /m);
      expect(text).toMatch(/ failed, /);
      expect(await holdings(mock.url)).toEqual([[], [], [], 403]);
    } finally {
      await proxy.close();
    }
  });

  it('--only selecting no check is a usage error naming the selection', async () => {
    await expect(runConformance({ url: mock.url, tokens, only: ['9', '12.3'] })).rejects.toMatchObject({
      name: 'ValidationError',
      field: 'only',
      message: expect.stringContaining('9, 12.3'),
    });
    expect((await command(['--url', mock.url, '--token', 'mock-token', '--only', '9'])).code).toBe(2);
  });

  it('5: a main credential the service refuses is a setup error (exit 2) that does not show it', async () => {
    const error = await runConformance({ url: mock.url, tokens: { main: 'SECRET-wrong' } }).catch((e) => e);
    expect(error).toMatchObject({ name: 'ValidationError', field: 'tokens.main' });
    expect(error.message).toMatch(/401/);
    expect(error.message).not.toContain('SECRET');
    const { code, text } = await command(['--url', mock.url, '--token', 'SECRET-wrong']);
    expect(code).toBe(2);
    expect(text).not.toContain('SECRET');
  });

  it('records a chat as its own only when the send was answered 2xx', async () => {
    const refusing: typeof fetch = async () =>
      new Response('{"status":"error","message_code":"api_token_invalid"}', {
        status: 401,
        headers: { 'content-type': 'application/json' },
      });
    const wire = new Wire({
      url: 'http://svc/',
      signal: new AbortController().signal,
      maxRequests: 10,
      requestTimeoutMs: 1000,
      fetch: refusing,
    });
    const ctx = new Context(wire, { main: 'mock-token' });
    await expect(streamed(ctx)).rejects.toMatchObject({ name: 'Failure' });
    await expect(synced(ctx)).rejects.toMatchObject({ name: 'Failure' });
    expect(ctx.chats.size).toBe(0);
  });

  it('refuses a URL with a user or password, without showing them', async () => {
    const url = 'http://user:SECRET-pw@127.0.0.1:9/';
    const error = await runConformance({ url, tokens }).catch((e) => e);
    expect(error).toMatchObject({ name: 'ValidationError', field: 'url' });
    expect(error.message).not.toMatch(/SECRET|user:/);
    const { code, text } = await command(['--url', url, '--token', 'mock-token']);
    expect(code).toBe(2);
    expect(text).not.toMatch(/SECRET|user:/);
  });
});

describe('the convo-conformance command (dist/conformance/cli.js)', () => {
  const cli = (args: string[]) =>
    run(process.execPath, [join(root, 'dist', 'conformance', 'cli.js'), ...args]).then(
      ({ stdout }) => ({ code: 0, stdout }),
      (error: { code: number; stdout: string; stderr: string }) => ({
        code: error.code,
        stdout: error.stdout + error.stderr,
      }),
    );

  it('exits 0 and prints the report by section against convo-mock', async () => {
    const { code, stdout } = await cli([
      '--url',
      mock.url,
      '--token',
      'mock-token',
      '--token',
      'other=other-token',
    ]);
    expect(stdout).toMatch(/^PASS {2}6 {4}rule 1: exactly one terminal event/m);
    expect(stdout).toMatch(/ 0 failed, /);
    expect(code).toBe(0);
  });

  it('exits 1 against a faulty service, printing the failing section, expected, got and request id', async () => {
    const proxy = await startFaultProxy(mock.url, FAULTS['a stream without message.start']!.make());
    try {
      const { code, stdout } = await cli([
        '--url',
        proxy.url,
        '--token',
        'mock-token',
        '--json',
        '--only',
        '6',
      ]);
      expect(code).toBe(1);
      const report = JSON.parse(stdout);
      expect(report.results[0]).toMatchObject({
        section: '6',
        outcome: 'fail',
        expected: '6 "always, and always first": message.start as the first event',
      });
    } finally {
      await proxy.close();
    }
  });

  it('runs each command docs/conformance.md gives as written: exit 0, and the figures it quotes', async () => {
    const kits = documented.filter(
      ({ command, args }) => command === 'convo-conformance' && args.includes('http://127.0.0.1:4010'),
    );
    expect(kits.map(({ text }) => text)).toEqual([
      'CONVO_API_TOKEN=mock-token CONVO_API_TOKEN_OTHER=other-token CONVO_API_TOKEN_LIMITED=limited-token CONVO_API_TOKEN_RESTRICTED=restricted-token npx convo-conformance --url http://127.0.0.1:4010 --outside-user 4',
      'CONVO_API_TOKEN=mock-token npx convo-conformance --url http://127.0.0.1:4010',
    ]);
    const doc = readFileSync(join(root, 'docs', 'conformance.md'), 'utf8');
    const [, checks, endpoints, codes, of] =
      /It passes (\d+) checks and exercises the (\d+) endpoints and (\d+) of the (\d+) codes/.exec(doc) ?? [];
    for (const kit of kits) {
      const args = kit.args.map((arg) => (arg === 'http://127.0.0.1:4010' ? mock.url : arg));
      const { stdout } = await run(
        process.execPath,
        [join(root, 'dist', 'conformance', 'cli.js'), ...args, '--json'],
        {
          env: {
            ...process.env,
            ...kit.env,
            CONVO_API_TOKEN_OTHER: '',
            CONVO_API_TOKEN_LIMITED: '',
            CONVO_API_TOKEN_RESTRICTED: '',
            CONVO_OUTSIDE_USER_ID: '',
            ...kit.env,
          },
        },
      );
      const report = JSON.parse(stdout) as {
        ok: boolean;
        counts: { pass: number; fail: number };
        results: Array<{ section: string; outcome: string; reason?: string }>;
        coverage: { endpoints: string[]; codes: string[]; codesMissed: string[] };
      };
      expect(report.ok, kit.text).toBe(true);
      if (!kit.env.CONVO_API_TOKEN_RESTRICTED) continue;
      // The checks that act while a turn runs pass only when the mock's turn is still running then.
      const quick = report.results.filter((result) => result.reason?.endsWith('(a quick model)')).length;
      expect(report.counts.pass + quick).toBe(Number(checks) + 2);
      expect(report.coverage.endpoints).toHaveLength(Number(endpoints));
      expect(report.coverage.codes.length + report.coverage.codesMissed.length).toBe(Number(of));
      const busy = report.coverage.codes.includes('api_v1_chat_busy') ? 1 : 0;
      expect(report.coverage.codes.length - busy).toBe(Number(codes));
    }
  });

  it('exits 2 on a usage error, naming the argument by position and never the token', async () => {
    const { code, stdout } = await cli(['--url', mock.url, '--token', 'sekret', '--bogus']);
    expect(code).toBe(2);
    expect(stdout).toMatch(/argument #5: unexpected/);
    expect(stdout).not.toContain('sekret');
  });
});
