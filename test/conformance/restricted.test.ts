import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseArgs } from '../../src/conformance/args.js';
import { parseTokenFile, resolveTokens } from '../../src/conformance/credentials.js';
import { runConformance } from '../../src/conformance/index.js';
import { type MockServer, startMockServer } from '../../src/mock/index.js';

// The credential restricted to an allowlist of skills (section 5): where it comes from, and what it unlocks.
let mock: MockServer;

beforeAll(async () => {
  mock = await startMockServer({
    port: 0,
    tokens: [{ token: 'mock-token' }, { token: 'restricted-token', allow: { skills: [] } }],
  });
});

afterAll(() => mock?.close());

describe('the restricted credential of convo-conformance', () => {
  it('comes from --token restricted=, a restricted= line of the token file, or CONVO_API_TOKEN_RESTRICTED', async () => {
    expect(parseArgs(['--url', 'http://x', '--token', 't', '--token', 'restricted=r']).tokens).toEqual({
      main: 't',
      restricted: 'r',
    });
    expect(parseTokenFile('main=t\nrestricted=r\n')).toEqual({ main: 't', restricted: 'r' });
    const tokens = await resolveTokens({}, undefined, {
      CONVO_API_TOKEN: 't',
      CONVO_API_TOKEN_RESTRICTED: 'r',
    });
    expect(tokens.restricted).toBe('r');
  });

  it('7.2 without it, the create-denied check is skipped, naming the flag and the variable to set', async () => {
    const report = await runConformance({
      url: mock.url,
      tokens: { main: 'mock-token' },
      only: ['7.2'],
      outsideUserId: 4,
    });
    expect(report.results.filter((result) => result.outcome === 'skip')).toEqual([
      expect.objectContaining({
        reason:
          'needs a credential restricted to an allowlist of skills: --token restricted=TOKEN or CONVO_API_TOKEN_RESTRICTED',
      }),
    ]);
    expect(report.coverage.codesMissed).toContain('api_v1_resource_policy_create_denied');
  });

  it('7.2 with it, creating a skill is 403 api_v1_resource_policy_create_denied, and nothing is left behind', async () => {
    const report = await runConformance({
      url: mock.url,
      tokens: { main: 'mock-token', restricted: 'restricted-token' },
      only: ['7.2'],
      outsideUserId: 4,
    });
    expect(report.counts).toEqual({ pass: 5, fail: 0, warn: 0, skip: 0 });
    expect(report.coverage.codes).toEqual(
      expect.arrayContaining(['api_v1_resource_policy_create_denied', 'api_v1_resource_not_allowed']),
    );
    const skills = await fetch(`${mock.url}/api/v1/skills`, {
      headers: { authorization: 'Bearer mock-token' },
    });
    expect(((await skills.json()) as { data: unknown[] }).data).toEqual([]);
  });

  it('7.2 without a user outside the company, the shared-outside check is skipped, naming --outside-user', async () => {
    const report = await runConformance({ url: mock.url, tokens: { main: 'mock-token' }, only: ['7.2'] });
    expect(
      report.results.filter((result) => result.outcome === 'skip').map((result) => result.reason),
    ).toContain(
      "needs the id of a user outside the credential's company: --outside-user ID or CONVO_OUTSIDE_USER_ID",
    );
    expect(report.ok).toBe(true);
  });
});
