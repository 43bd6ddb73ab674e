import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHECKS } from '../../src/conformance/checks/index.js';
import { runConformance } from '../../src/conformance/index.js';
import { type MockServer, startMockServer } from '../../src/mock/index.js';
import { FAULTS, type Fault, startFaultProxy, VARIANTS } from './fault-proxy.js';
import { holdings } from './holdings.js';

// The kit proved both ways: each fault the spec names fails the run with one FAIL, in its section, naming
// the request; each service that differs from convo-mock only where the spec allows passes.
const tokens = {
  main: 'mock-token',
  other: 'other-token',
  limited: 'limited-token',
  restricted: 'restricted-token',
};
/** A user of company 2, outside the company of the credentials' users (mock-conventions "Fixtures"). */
const OUTSIDER = 4;
let mock: MockServer;

beforeAll(async () => {
  mock = await startMockServer({
    port: 0,
    tokens: [
      { token: 'mock-token' },
      { token: 'other-token', scopes: ['chat:read', 'chat:write'], userId: 2 },
      { token: 'limited-token', scopes: ['chat:read'] },
      { token: 'restricted-token', allow: { skills: [] } },
    ],
  });
});

afterAll(() => mock?.close());

async function runThrough(fault: Fault) {
  const proxy = await startFaultProxy(mock.url, fault);
  try {
    return await runConformance({ url: proxy.url, tokens, outsideUserId: OUTSIDER });
  } finally {
    await proxy.close();
  }
}

describe('the conformance kit against convo-mock in-process', () => {
  it('passes every check it runs, warns of nothing, and reports the contract it exercised', async () => {
    const report = await runConformance({ url: mock.url, tokens, outsideUserId: OUTSIDER });
    expect(report.results.filter((result) => result.outcome !== 'pass' && result.outcome !== 'skip')).toEqual(
      [],
    );
    expect(report.counts.pass).toBeGreaterThanOrEqual(35);
    expect(report.coverage.endpointsMissed).toEqual([]);
    expect(report.coverage.codes).toEqual(
      expect.arrayContaining(['api_v1_content_too_long', 'api_v1_action_not_found', 'prompt_refs_invalid']),
    );
    // Each failure of ENDPOINT_DOCS a check claims to provoke was answered, on its endpoint.
    // (3.4's checks need a turn that runs a while: the mock's plain one is quick, running.test.ts shows them.)
    const passed = new Set(report.results.filter((r) => r.outcome === 'pass').map((r) => r.title));
    const claimed = CHECKS.filter((check) => passed.has(check.title)).flatMap(
      (check) => check.exercises ?? [],
    );
    expect([...report.coverage.failures].sort()).toEqual([...claimed].sort());
    expect(
      report.results.filter(
        (result) =>
          result.outcome === 'skip' &&
          !/^needs |^the spec does not|\(a quick model\)$/.test(result.reason ?? ''),
      ),
    ).toEqual([]);
    expect(await holdings(mock.url)).toEqual([[], [], [], 403]);
  });
});

describe.each(Object.entries(FAULTS))('the conformance kit against a service with %s', (_, fault) => {
  it(`fails with one FAIL in section ${fault.section}, naming the request, what was expected and what came`, async () => {
    const report = await runThrough(fault.make());
    expect(report.ok).toBe(false);
    const failed = report.results.filter((result) => result.outcome === 'fail');
    expect(failed).toEqual([
      expect.objectContaining({
        section: fault.section,
        expected: expect.stringMatching(`^${fault.section} "`),
        got: expect.stringMatching(fault.got),
        request: expect.objectContaining({ call: expect.stringMatching(fault.call) }),
      }),
    ]);
    expect(await holdings(mock.url)).toEqual([[], [], [], 403]);
  });
});

describe.each(Object.entries(VARIANTS))(
  'the conformance kit against a conforming service with %s',
  (_, variant) => {
    it('passes (a warning at most) and leaves nothing behind', async () => {
      const report = await runThrough(variant());
      expect(report.results.filter((result) => result.outcome === 'fail')).toEqual([]);
      expect(report.ok).toBe(true);
      expect(await holdings(mock.url)).toEqual([[], [], [], 403]);
    });
  },
);
