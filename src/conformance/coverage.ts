import { KNOWN_CODES } from '../contract/codes.js';
import { ANSWERS } from '../contract/interactions.js';
import type { Coverage } from './types.js';
import type { Wire } from './wire.js';

/** The endpoints of section 4, as its tables write them (the answer endpoints from the contract's `ANSWERS`). */
const ENDPOINTS: readonly string[] = [
  'GET /api/v1/skills',
  'POST /api/v1/skills',
  'GET /api/v1/skills/{skill_id}',
  'PATCH /api/v1/skills/{skill_id}',
  'PATCH /api/v1/skills/{skill_id}/toggle',
  'DELETE /api/v1/skills/{skill_id}',
  'GET /api/v1/chats',
  'POST /api/v1/chats',
  'GET /api/v1/chats/{chat_id}',
  'PATCH /api/v1/chats/{chat_id}',
  'DELETE /api/v1/chats/{chat_id}',
  'GET /api/v1/chats/{chat_id}/messages',
  'POST /api/v1/chats/{chat_id}/messages',
  'POST /api/v1/chats/{chat_id}/messages/stream',
  'GET /api/v1/chat/catalog',
  ...Object.values(ANSWERS).map(({ endpoint }) => `POST /api/v1/chats/{chat_id}/actions/${endpoint}`),
  'POST /api/v1/chats/{chat_id}/actions/cancel',
];

const MATCHERS = ENDPOINTS.map((endpoint) => ({
  endpoint,
  pattern: new RegExp(`^${endpoint.replace(/\{\w+\}/g, '[^/]+')}$`),
}));

/** What of the contract's tables the run's wire exercised. */
export function coverageOf(wire: Wire): Coverage {
  const endpoints = new Set<string>();
  for (const call of wire.seen.calls) {
    const found = MATCHERS.find(({ pattern }) => pattern.test(call));
    if (found) endpoints.add(found.endpoint);
  }
  const codes = [...wire.seen.codes].filter((code) => (KNOWN_CODES as readonly string[]).includes(code));
  return {
    endpoints: ENDPOINTS.filter((endpoint) => endpoints.has(endpoint)),
    endpointsMissed: ENDPOINTS.filter((endpoint) => !endpoints.has(endpoint)),
    statuses: [...wire.seen.statuses].sort((a, b) => a - b),
    codes: KNOWN_CODES.filter((code) => codes.includes(code)),
    codesMissed: KNOWN_CODES.filter((code) => !codes.includes(code)),
  };
}
