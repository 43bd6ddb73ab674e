import { describe, expect, it } from 'vitest';
import { CONTRACT_CODES, coverageOf } from '../../src/conformance/coverage.js';
import { Wire } from '../../src/conformance/wire.js';
import { KNOWN_CODES, MOCK_CODES } from '../../src/contract/codes.js';
import { ENDPOINT_NAMES, ENDPOINTS } from '../../src/contract/endpoints.js';

/** A wire that sends nothing: only what it saw is set by the test. */
const idleWire = () =>
  new Wire({
    url: 'http://127.0.0.1:1',
    signal: new AbortController().signal,
    maxRequests: 0,
    requestTimeoutMs: 1,
    fetch: () => Promise.reject(new Error('unused')),
  });

describe('conformance coverage reads the contract tables', () => {
  const contract = ENDPOINT_NAMES.filter((name) => !('outsideContract' in ENDPOINTS[name])).map(
    (name) => `${ENDPOINTS[name].method} /api/v1/${ENDPOINTS[name].path}`,
  );

  it('4 lists every endpoint of the endpoint table but the uncontracted GET /users, and the codes of the contract', () => {
    const coverage = coverageOf(idleWire());
    expect(contract).not.toContain('GET /api/v1/users');
    expect(coverage.endpoints).toEqual([]);
    expect(coverage.endpointsMissed).toEqual(contract);
    expect(coverage.codesMissed).toEqual(CONTRACT_CODES);
  });

  it("2.1, 5, 7 counts the contract's own failure codes: not api_v1_ok, nor the codes only the mock answers", () => {
    expect(CONTRACT_CODES).not.toContain('api_v1_ok');
    for (const code of MOCK_CODES) expect(CONTRACT_CODES).not.toContain(code);
    expect(CONTRACT_CODES).toHaveLength(KNOWN_CODES.length - 2);
    const wire = idleWire();
    for (const code of ['api_v1_ok', 'api_v1_unauthorized', 'api_v1_validation_error', 'api_v1_chat_busy'])
      wire.seen.codes.add(code);
    expect(coverageOf(wire).codes).toEqual(['api_v1_chat_busy']);
  });

  it('4 a call covers the one endpoint its method and path match; other methods, paths and codes cover none', () => {
    const wire = idleWire();
    for (const call of [
      'GET /api/v1/chats/c1',
      'POST /api/v1/chats/c1/messages/stream',
      'PUT /api/v1/skills',
      'GET /api/v1/users',
      'GET /api/v1/chats/c1/messages/extra',
    ])
      wire.seen.calls.add(call);
    for (const code of ['api_v1_turn_in_progress', 'not_a_code']) wire.seen.codes.add(code);
    const coverage = coverageOf(wire);
    expect(coverage.endpoints).toEqual([
      'GET /api/v1/chats/{chat_id}',
      'POST /api/v1/chats/{chat_id}/messages/stream',
    ]);
    expect(coverage.endpointsMissed).toHaveLength(contract.length - 2);
    expect(coverage.codes).toEqual(['api_v1_turn_in_progress']);
  });
});
