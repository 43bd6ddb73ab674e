import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseArgs } from '../../src/conformance/args.js';
import { main } from '../../src/conformance/command.js';
import { parseTokenFile, resolveTokens } from '../../src/conformance/credentials.js';
import { formatJunit, formatReport } from '../../src/conformance/index.js';

describe('the conformance report as text', () => {
  it('prints each check by section: a failure with its request, expected and got; a warning; a skip with its reason', () => {
    const text = formatReport({
      url: 'http://svc/',
      results: [
        { section: '2.1', title: 'envelope', outcome: 'pass' },
        {
          section: '7.1',
          title: 'not found',
          outcome: 'fail',
          expected: '404 api_v1_not_found',
          got: '403 x',
          request: { call: 'GET /api/v1/chats/1', status: 403, requestId: 'r-1' },
          requestId: 'r-1',
        },
        { section: '5', title: 'bad token', outcome: 'warn', expected: '401', got: '400 x' },
        { section: '4.5', title: 'answers', outcome: 'skip', reason: 'needs a scripted model' },
      ],
      counts: { pass: 1, fail: 1, warn: 1, skip: 1 },
      coverage: {
        endpoints: ['GET /api/v1/chats/{chat_id}'],
        endpointsMissed: ['GET /api/v1/chats'],
        statuses: [200, 403],
        codes: ['api_v1_ok'],
        codesMissed: [],
        failures: [],
      },
      requests: 3,
      durationMs: 1500,
      ok: false,
    });
    expect(text.split('\n')).toEqual([
      'Conformance of http://svc/ to API v1',
      '',
      'PASS  2.1  envelope',
      'FAIL  7.1  not found',
      '        request:  GET /api/v1/chats/1 -> 403 (request id r-1)',
      '        expected: 404 api_v1_not_found',
      '        got:      403 x',
      'WARN  5    bad token',
      '        expected: 401',
      '        got:      400 x',
      'SKIP  4.5  answers',
      '        skipped: needs a scripted model',
      '',
      'Exercised 1 of 2 endpoints, statuses 200, 403, 1 of 1 message codes of the contract',
      '1 passed, 1 failed, 1 warned, 1 skipped; 3 requests in 1.5 s',
    ]);
  });
});

describe('the conformance report of a run that saw no answer', () => {
  it('says "statuses none", never an empty list', () => {
    const text = formatReport({
      url: 'http://svc/',
      results: [],
      counts: { pass: 0, fail: 0, warn: 0, skip: 0 },
      coverage: {
        endpoints: [],
        endpointsMissed: ['GET /api/v1/chats'],
        statuses: [],
        codes: [],
        codesMissed: [],
        failures: [],
      },
      requests: 0,
      durationMs: 0,
      ok: true,
    });
    expect(text).toContain('Exercised 0 of 1 endpoints, statuses none, 0 of 0 message codes of the contract');
    expect(text).not.toMatch(/statuses ,/);
  });
});

describe('convo-conformance arguments', () => {
  it('takes the main token, named ones, --only and --json, in both --flag value and --flag=value forms', () => {
    expect(
      parseArgs(['--url=http://x', '--token', 't', '--token', 'other=o', '--only', '6, 7.1', '--json']),
    ).toEqual({
      url: 'http://x',
      tokens: { main: 't', other: 'o' },
      tokenFile: undefined,
      junit: undefined,
      json: true,
      only: ['6', '7.1'],
      help: false,
    });
  });

  it('refuses a missing URL, a second main token and an unknown option, never showing a token', () => {
    expect(() => parseArgs(['--token', 't'])).toThrow('--url: is required');
    expect(() => parseArgs(['--url', 'http://x', '--token', 'secret1', '--token', 'secret2'])).toThrow(
      /main credential given twice/,
    );
    const error = (() => {
      try {
        parseArgs([
          '--url',
          'http://x',
          '--token',
          'secret1',
          '--token',
          'other=secret2',
          '--token',
          'other=secret3',
        ]);
      } catch (caught) {
        return caught as Error;
      }
    })();
    expect(error?.message).toBe('--token: other given twice');
  });
});

describe('convo-conformance usage errors never show a token', () => {
  const usageError = (argv: string[]): string | undefined => {
    try {
      parseArgs(argv);
    } catch (caught) {
      return (caught as Error).message;
    }
    return undefined;
  };

  it.each([
    [['--url', 'http://x', '--token', 'SECRET-abc', 'extra'], 'argument #5: unexpected (see --help)'],
    [['--url', '--token', 'SECRET-abc'], '--url: needs a value'],
    [['--url', 'http://x', '--only', '--token', 'SECRET-abc'], '--only: needs a value'],
    [['--url', 'http://x', '--token', 'SECRET-abc', '--SECRET-abc'], 'argument #5: unexpected (see --help)'],
    [
      ['--url', 'http://x', '--token', 'SECRET-abc', '--x=SECRET-abc'],
      'argument #5: unexpected (see --help)',
    ],
    [['--token', 'SECRET-abc', '--token', 'other=SECRET-def', '--token', 'SECRET-ghi'], /given twice/],
    [['SECRET-abc', '--url', 'http://x', '--token', 'SECRET-abc'], 'argument #1: unexpected (see --help)'],
  ])('%j is refused without the token', (argv, message) => {
    const error = usageError(argv);
    expect(error).toMatch(message);
    expect(error).not.toMatch(/SECRET/);
  });
});

describe('convo-conformance --outside-user', () => {
  it('takes a user id from --outside-user, else CONVO_OUTSIDE_USER_ID; refuses one that is not a positive integer', async () => {
    expect(parseArgs(['--url', 'http://x', '--outside-user', '4']).outsideUser).toBe('4');
    let out = '';
    const io = { out: (text: string) => (out += text), err: (text: string) => (out += text) };
    for (const [argv, env] of [
      [['--outside-user', '0'], {}],
      [[], { CONVO_OUTSIDE_USER_ID: 'x4' }],
      [['--outside-user', '99999999999999999'], {}],
    ] as const) {
      out = '';
      const code = await main(
        ['--url', 'http://127.0.0.1:9', '--token', 'SECRET-t', ...argv],
        io,
        undefined,
        env,
      );
      expect(code).toBe(2);
      expect(out).toMatch(/^convo-conformance: --outside-user: must be a user id/);
      expect(out).not.toContain('SECRET');
    }
  });
});

describe('convo-conformance credentials', () => {
  it('takes each credential from its flag, else the token file, else its environment variable', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'conformance-'));
    const file = join(dir, 'tokens');
    await writeFile(file, '# staging\nother=file-other\n\nlimited=file-limited\n');
    const env = { CONVO_API_TOKEN: 'env-main', CONVO_API_TOKEN_OTHER: 'env-other' };
    expect(await resolveTokens({ limited: 'flag-limited' }, file, env)).toEqual({
      main: 'env-main',
      other: 'file-other',
      limited: 'flag-limited',
    });
    expect(await resolveTokens({}, undefined, { CONVO_API_TOKEN: 'env-main' })).toEqual({
      main: 'env-main',
      other: undefined,
      limited: undefined,
    });
  });

  it('refuses a run without a main credential, a bad file line, or a missing file, never showing a token', async () => {
    await expect(resolveTokens({ other: 'SECRET-o' }, undefined, {})).rejects.toMatchObject({
      name: 'ValidationError',
      message: expect.stringContaining('CONVO_API_TOKEN'),
    });
    expect(() => parseTokenFile('main=SECRET-a\nSECRET-b\n')).toThrow(
      /^--token-file line 2: must be main=TOKEN/,
    );
    expect(() => parseTokenFile('main=SECRET-a\nmain=SECRET-b\n')).toThrow(
      '--token-file line 2: main given twice',
    );
    const missing = await resolveTokens({}, '/nonexistent/SECRET-path', {}).catch((error: Error) => error);
    expect(missing).toMatchObject({ name: 'ValidationError', message: '--token-file: cannot be opened' });
  });
});

describe('the conformance report as JUnit XML', () => {
  it('one test case per check: a failure with its request, a skip, a warning as output; text escaped', () => {
    const xml = formatJunit({
      url: 'http://svc/',
      results: [
        { section: '2.1', title: 'envelope <all>', outcome: 'pass' },
        {
          section: '7.1',
          title: 'not found',
          outcome: 'fail',
          expected: '404 "api_v1_not_found"',
          got: '403 x & y',
          request: { call: 'GET /api/v1/chats/1', status: 403, requestId: 'r-1' },
        },
        { section: '5', title: 'bad token', outcome: 'warn', expected: '401', got: '400' },
        { section: '4.5', title: 'answers', outcome: 'skip', reason: 'needs a scripted model' },
      ],
      counts: { pass: 1, fail: 1, warn: 1, skip: 1 },
      coverage: {
        endpoints: [],
        endpointsMissed: [],
        statuses: [],
        codes: [],
        codesMissed: [],
        failures: [],
      },
      requests: 3,
      durationMs: 1500,
      ok: false,
    });
    expect(xml).toContain(
      '<testsuite name="convo-conformance http://svc/" tests="4" failures="1" skipped="1" time="1.500">',
    );
    expect(xml).toContain('name="2.1 envelope &lt;all&gt;"></testcase>');
    expect(xml).toContain(
      '<failure message="expected 404 &quot;api_v1_not_found&quot;">request: GET /api/v1/chats/1 -&gt; 403 (request id r-1)\nexpected: 404 &quot;api_v1_not_found&quot;\ngot: 403 x &amp; y</failure>',
    );
    expect(xml).toContain('<system-out>WARN: expected 401; got 400</system-out>');
    expect(xml).toContain('<skipped message="needs a scripted model"></skipped>');
  });
});
