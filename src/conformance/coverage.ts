import { KNOWN_CODES } from '../contract/codes.js';
import { ENDPOINT_NAMES, ENDPOINTS, pathPattern } from '../contract/endpoints.js';
import type { Coverage } from './types.js';
import type { Wire } from './wire.js';

/**
 * The endpoints of the contract's table as section 4 writes them (`GET /api/v1/chats/{chat_id}`), with the
 * pattern of the paths that call each; `GET /users` is left out, being outside the contract (4.1).
 */
const MATCHERS = ENDPOINT_NAMES.filter((name) => !('outsideContract' in ENDPOINTS[name])).map((name) => {
  const { method, path } = ENDPOINTS[name];
  return {
    endpoint: `${method} /api/v1/${path}`,
    pattern: new RegExp(`^${method} ${pathPattern(path)}$`),
  };
});

/** What of the contract's tables the run's wire exercised. */
export function coverageOf(wire: Wire): Coverage {
  const calls = [...wire.seen.calls];
  const called = (pattern: RegExp) => calls.some((call) => pattern.test(call));
  const codes = [...wire.seen.codes].filter((code) => (KNOWN_CODES as readonly string[]).includes(code));
  return {
    endpoints: MATCHERS.filter(({ pattern }) => called(pattern)).map(({ endpoint }) => endpoint),
    endpointsMissed: MATCHERS.filter(({ pattern }) => !called(pattern)).map(({ endpoint }) => endpoint),
    statuses: [...wire.seen.statuses].sort((a, b) => a - b),
    codes: KNOWN_CODES.filter((code) => codes.includes(code)),
    codesMissed: KNOWN_CODES.filter((code) => !codes.includes(code)),
  };
}
