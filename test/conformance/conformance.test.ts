import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformance } from '../../src/conformance/index.js';
import { type CommandServer, startCommandServer } from '../support/command-server.js';
import { FAULTS, type FaultProxy, startFaultProxy } from './fault-proxy.js';

// convo-mock started as an external server, as `npm run test:external` starts it: the kit passes against it,
// and fails, naming the section, against a proxy that breaks the contract in one chosen way.
const root = join(import.meta.dirname, '..', '..');
const run = promisify(execFile);
const tokens = { main: 'mock-token', other: 'other-token', limited: 'limited-token' };
let mock: CommandServer;

beforeAll(async () => {
  await run(process.execPath, [join(root, 'scripts', 'dist.mjs'), 'check']);
  mock = await startCommandServer(
    `${JSON.stringify(process.execPath)} ${join(root, 'dist', 'mock', 'cli.js')}`,
    [
      '--port',
      '0',
      '--token',
      'mock-token',
      '--token',
      'other-token=chat:read,chat:write',
      '--token',
      'limited-token=chat:read',
    ],
  );
});

afterAll(() => mock?.stop());

/** What each credential sees of chats and skills: the run must leave these as it found them. */
async function holdings(): Promise<unknown[]> {
  const seen: unknown[] = [];
  for (const token of ['mock-token', 'other-token']) {
    for (const path of ['/api/v1/chats', '/api/v1/skills']) {
      const answer = await fetch(`${mock.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
      seen.push(answer.status === 200 ? ((await answer.json()) as { data: unknown }).data : answer.status);
    }
  }
  return seen;
}

describe('conformance kit against convo-mock', () => {
  it('passes every check it runs, skips only what needs a scripted model, and leaves nothing behind', async () => {
    const report = await runConformance({ url: mock.url, tokens });
    expect(report.results.filter((result) => result.outcome === 'fail')).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.counts.pass).toBeGreaterThanOrEqual(27);
    expect(report.results.filter((r) => r.outcome === 'skip').map((r) => r.reason)).toEqual(
      Array(report.counts.skip).fill(expect.stringMatching(/^needs a scripted model/)),
    );
    expect(report.requests).toBeLessThan(120);
    expect(await holdings()).toEqual([[], [], [], 403]);
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
      'needs a credential with chat:read only: --token limited=TOKEN',
    ]);
    expect(report.ok).toBe(true);
  });

  it('--only runs the sections named and their subsections', async () => {
    const report = await runConformance({ url: mock.url, tokens, only: ['7'] });
    expect(new Set(report.results.map((result) => result.section))).toEqual(
      new Set(['7.1', '7.3', '7.4', '7.6']),
    );
  });

  it('stays within its request bound, and still cleans up what it created', async () => {
    const report = await runConformance({ url: mock.url, tokens, maxRequests: 12 });
    expect(
      report.results.some((result) => result.reason === "the run's bound of 12 requests was reached"),
    ).toBe(true);
    expect(await holdings()).toEqual([[], [], [], 403]);
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
    expect(await holdings()).toEqual([[], [], [], 403]);
  });

  it('refuses an unusable URL or token with a ValidationError that does not show the token', async () => {
    await expect(runConformance({ url: 'ftp://x', tokens })).rejects.toMatchObject({ field: 'url' });
    const error = await runConformance({ url: mock.url, tokens: { main: 'secret token' } }).catch((e) => e);
    expect(error).toMatchObject({ name: 'ValidationError', field: 'tokens.main' });
    expect(error.message).not.toContain('secret');
  });
});

describe.each([
  ['404 answered as 403', '7.1', /^403 /, true],
  ['a wrong message_code', '2.1', /message_code is "api_v1_success"/, true],
  ['a missing meta.total', '2.1', /meta lacks an integer total/, true],
  ['an event after the terminal one', '6', /^\["message.delta"\]$/, true],
  // No message.start, so no request id came with the stream.
  ['a stream without message.start', '6', /^message.step first/, false],
] as const)('conformance kit against a service with %s', (fault, section, got, identified) => {
  let proxy: FaultProxy;
  beforeAll(async () => {
    proxy = await startFaultProxy(mock.url, FAULTS[fault]);
  });
  afterAll(() => proxy.close());

  it(`fails, naming section ${section}, with what was expected and what came`, async () => {
    const report = await runConformance({ url: proxy.url, tokens });
    expect(report.ok).toBe(false);
    const failed = report.results.filter((result) => result.outcome === 'fail');
    expect(failed.find((result) => result.section === section && got.test(result.got ?? ''))).toMatchObject({
      expected: expect.any(String),
      requestId: identified ? expect.stringMatching(/^[0-9a-f-]{36}$/) : undefined,
    });
    if (section === '2.1') expect(new Set(failed.map((result) => result.section))).toEqual(new Set(['2.1']));
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
    const proxy = await startFaultProxy(mock.url, FAULTS['a stream without message.start']);
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
        expected: 'message.start as the first event',
      });
    } finally {
      await proxy.close();
    }
  });

  it('exits 2 on a usage error, naming the option and never the token', async () => {
    const { code, stdout } = await cli(['--url', mock.url, '--token', 'sekret', '--bogus']);
    expect(code).toBe(2);
    expect(stdout).toMatch(/argument #5: unexpected/);
    expect(stdout).not.toContain('sekret');
  });
});
