import { KNOWN_CODES, MOCK_CODES } from '../contract/codes.js';
import { ENDPOINT_NAMES, ENDPOINTS, pathPattern } from '../contract/endpoints.js';
import { contractFailures, type FailureKey } from './failures.js';
import type { Coverage } from './types.js';
import type { Wire } from './wire.js';

/**
 * The endpoints of the contract's table as section 4 writes them (`GET /api/v1/chats/{chat_id}`), with the
 * pattern of the paths that call each; `GET /users` is left out, being outside the contract (4.1).
 */
const MATCHERS = ENDPOINT_NAMES.filter((name) => !('outsideContract' in ENDPOINTS[name])).map((name) => {
  const { method, path } = ENDPOINTS[name];
  return {
    name,
    endpoint: `${method} /api/v1/${path}`,
    pattern: new RegExp(`^${method} ${pathPattern(path)}$`),
  };
});

/**
 * The codes of the contract's failures (sections 5, 6 and 7): not `api_v1_ok`, the success's, nor the codes
 * the reference mock answers where the contract names none (its 401 among them).
 */
export const CONTRACT_CODES = KNOWN_CODES.filter(
  (code) => code !== 'api_v1_ok' && !(MOCK_CODES as readonly string[]).includes(code),
);

/** What of the contract's tables the run's wire exercised. */
export function coverageOf(wire: Wire): Coverage {
  const calls = [...wire.seen.calls];
  const called = (pattern: RegExp) => calls.some((call) => pattern.test(call));
  const codes = [...wire.seen.codes];
  const documented = contractFailures();
  const failures = new Set<FailureKey>();
  for (const refusal of wire.seen.refusals) {
    const [method, path, status, code] = refusal.split(' ');
    const matched = MATCHERS.find(({ pattern }) => pattern.test(`${method} ${path}`));
    const key = matched && (`${matched.name} ${status} ${code}` as FailureKey);
    if (key && documented.has(key)) failures.add(key);
  }
  return {
    endpoints: MATCHERS.filter(({ pattern }) => called(pattern)).map(({ endpoint }) => endpoint),
    endpointsMissed: MATCHERS.filter(({ pattern }) => !called(pattern)).map(({ endpoint }) => endpoint),
    statuses: [...wire.seen.statuses].sort((a, b) => a - b),
    codes: CONTRACT_CODES.filter((code) => codes.includes(code)),
    codesMissed: CONTRACT_CODES.filter((code) => !codes.includes(code)),
    failures: [...documented.keys()].filter((key) => failures.has(key)),
  };
}
