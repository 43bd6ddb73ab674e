// The literal examples of the document's answers: one `data` per answer schema, one per error code. Tools
// that mock the API from the document alone (Prism's static mode, @mswjs/source `fromOpenApi`) answer with
// them, so each is one the client accepts (test/openapi/document.test.ts checks every one of them against
// the document and the client's own schema). Values follow the reference mock's fixtures.
import type { EndpointName } from '../src/contract/endpoints.js';

const CHAT_ID = '3fa85f64-5717-4562-b3fc-2c963f66afa6';
const REQUEST_ID = '0b6c7a39-7f0b-4d8e-9a3e-5f2d1c4b8a71';
const AT = '2026-01-15T09:30:00Z';

const skill = {
  id: 1,
  name: 'Refund policy',
  description: 'How we answer refund questions.',
  instructions: 'Answer with the refund policy of {{library:1}}.',
  icon: 'book',
  level: 'personal',
  visibility: 'public',
  workspace_id: null,
  is_active: true,
  created_at: AT,
};
const chat = {
  id: CHAT_ID,
  name: 'Support',
  is_favorite: false,
  permission_mode: 'manual',
  model_id: 1,
  created_at: AT,
  updated_at: AT,
};
const turn = {
  id: 1,
  chat_id: CHAT_ID,
  role: 'assistant',
  content: 'Refunds are accepted within 30 days.',
  status: 'completed',
  usage: {
    prompt_tokens: 12,
    completion_tokens: 8,
    total_tokens: 20,
    reasoning_tokens: 0,
    model: 'mock-large',
    provider: 'mock',
  },
  steps: [],
  sources: [],
  anonymization: null,
  metadata: null,
};
const catalog = {
  models: [
    { id: 1, name: 'Mock Large', code: 'mock-large', type: 'COMPLETION' },
    { id: 2, name: 'Mock Small', code: 'mock-small', type: 'COMPLETION' },
  ],
  permission_modes: ['manual', 'auto'],
  libraries: [{ id: 1, name: 'Handbook' }],
  skills: [{ id: 1, name: 'Refund policy' }],
  connectors: [{ id: 1, name: 'github', display_name: 'GitHub' }],
};
const resolved = { action_id: 'act_1', state: 'resolved' };

/** The `data` of each endpoint's success (a list's one page). */
export const DATA_EXAMPLES: Record<Exclude<EndpointName, 'turns.stream'>, unknown> = {
  'skills.list': [skill],
  'skills.create': skill,
  'skills.get': skill,
  'skills.update': skill,
  'skills.toggle': { ...skill, is_active: false },
  'skills.delete': { id: 1 },
  // The reference mock's answer: 4.1 shows no shape.
  'users.list': [{ id: 1 }, { id: 2 }, { id: 3 }],
  'chats.list': [chat],
  'chats.create': chat,
  'chats.get': chat,
  'chats.update': { ...chat, is_favorite: true },
  'chats.delete': { id: CHAT_ID, deleted: true },
  'chats.messages': [{ ...turn, prompt: 'What is our refund policy?', created_at: AT }],
  'chats.catalog': catalog,
  'turns.send': turn,
  'turns.cancel': { chat_id: CHAT_ID, cancelled: true },
  'actions.approveTool': resolved,
  'actions.respondPlan': resolved,
  'actions.respondElicitation': resolved,
  'actions.cancelAuth': resolved,
};

/** The envelope's `meta` of an example. */
export const metaExample = (items?: number) =>
  items === undefined
    ? { request_id: REQUEST_ID }
    : { request_id: REQUEST_ID, page: 1, size: 50, total: items };

/** The `data` of a failure's example, by `message_code` (a code not here has none: `null`); by status where it differs. */
function errorDataExample(code: string, status: number): unknown {
  switch (code) {
    case 'api_token_scope_not_allowed':
      return { required_scopes: ['libraries:read'] };
    case 'api_v1_chat_busy':
      return { message_id: 7 };
    case 'api_v1_core_unavailable':
      if (status === 409) return { code: 'idempotency_outcome_unknown' };
      return status === 503 ? { code: 'persistence_failed' } : null;
    case 'api_v1_action_result_unknown':
      return status === 409 ? { upstream_status: 409 } : null;
    case 'upstream_error':
    case 'turn_timeout':
    case 'interaction_in_auto_mode':
      return { chat_id: CHAT_ID, message_id: 7 };
    case 'prompt_refs_invalid':
      return [{ library: [99] }];
    case 'api_v1_validation_error':
      return [{ field: 'name', message: 'must be at most 255 characters', limit: 255 }];
    default:
      return null;
  }
}

/** The failed answer's example: the first code of a status, with its `data`. */
export const errorExample = (code: string, status: number, message: string) => ({
  status: 'error',
  message,
  message_code: code,
  data: errorDataExample(code, status),
  meta: { request_id: REQUEST_ID },
});
