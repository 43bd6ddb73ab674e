import * as z from 'zod/mini';
import type { KnownCode, MockCode } from './codes.js';
import type { EndpointName } from './endpoints.js';
import { turnRefDataSchema } from './error-data.js';
import { LIMITS } from './limits.js';

/**
 * What each endpoint can answer besides success, as data: the OpenAPI document, the tests and the
 * conformance kit read it; the client does not (it stays out of the bundle).
 */

/** Where a failure's code comes from: the contract's words, or the reference mock's reading of a gap. */
type FailureSource = 'contract' | 'mock';

/** The section a failure comes from; `7` alone where section 7 leaves the failure open. */
type FailureSection = '5' | '7' | '7.1' | '7.2' | '7.3' | '7.4' | '7.5' | '7.6' | '8';

/** One `message_code` an endpoint can answer with one status. */
export interface FailureDoc {
  /** The HTTP status. */
  readonly status: number;
  /** The `message_code`. */
  readonly code: KnownCode | MockCode;
  /** The section that names it (or, for a mock reading, the gap it fills). */
  readonly section: FailureSection;
  /** The contract's, or a reading of the reference mock. */
  readonly source: FailureSource;
  /** When it is answered. */
  readonly when: string;
  /** Its `data` here, where narrower than the code's own (`ERROR_DATA_SCHEMAS`). */
  readonly data?: z.ZodMiniType;
  /** Other codes may come with this status (7.3: the model's own), with this failure's `data`. */
  readonly open?: true;
}

/** An endpoint's description beyond its shape (`ENDPOINTS`). */
export interface EndpointDoc {
  /** One line. */
  readonly summary: string;
  /** What the line leaves out. */
  readonly description?: string;
  /** Every failure it can answer. */
  readonly failures: readonly FailureDoc[];
  /** The values the service takes for absent fields of the body or query (2.2, 4). */
  readonly defaults?: Readonly<Record<string, unknown>>;
  /** A body it accepts. */
  readonly example?: Readonly<Record<string, unknown>>;
}

const UNAUTHORIZED: FailureDoc = {
  status: 401,
  code: 'api_v1_unauthorized',
  section: '5',
  source: 'mock',
  when: 'no credential, or one the service does not know; section 5 requires one but names no status or code',
};
const SCOPE: FailureDoc = {
  status: 403,
  code: 'api_token_scope_not_allowed',
  section: '5',
  source: 'mock',
  when: "the credential lacks the endpoint's scope; section 5 names this code for attachments, the mock answers it here too",
};
const ATTACHMENT_SCOPE: FailureDoc = {
  status: 403,
  code: 'api_token_scope_not_allowed',
  section: '5',
  source: 'contract',
  when: 'an attachment list without its scope (workspace_ids and file_ids need libraries:read, skill_ids skills:read, mcp_server_ids connectors:use); data.required_scopes lists the missing ones',
};
const NOT_FOUND: FailureDoc = {
  status: 404,
  code: 'api_v1_not_found',
  section: '7.1',
  source: 'contract',
  when: "it does not exist, or is outside the credential's scope: both answer the same, never 403",
};
const CHAT_NOT_FOUND: FailureDoc = {
  ...NOT_FOUND,
  when: "the chat belongs to another credential (an unknown chat_id creates the chat), or an attachment is outside the credential's scope",
};
const INVALID_JSON: FailureDoc = {
  status: 400,
  code: 'api_v1_invalid_json',
  section: '7',
  source: 'mock',
  when: 'the body is not UTF-8 JSON',
};
const TOO_LARGE: FailureDoc = {
  status: 413,
  code: 'api_v1_payload_too_large',
  section: '7',
  source: 'mock',
  when: 'the body exceeds 8 MiB',
};
const INVALID: FailureDoc = {
  status: 422,
  code: 'api_v1_validation_error',
  section: '7',
  source: 'mock',
  when: 'a field the schema refuses; data lists each { field, message, limit? }',
};
/** Every endpoint that reads a body. */
const BODY = [INVALID_JSON, TOO_LARGE, INVALID];
/** 7.2. */
const REFS_INVALID: FailureDoc = {
  status: 422,
  code: 'prompt_refs_invalid',
  section: '7.2',
  source: 'contract',
  when: 'instructions cite resources that do not exist, that the user cannot use, or that this type does not accept; data[0] groups them; nothing is saved',
};
const TEXT_TOO_LONG: FailureDoc = {
  status: 422,
  code: 'prompt_text_too_long',
  section: '7.2',
  source: 'contract',
  when: `instructions exceed ${LIMITS.skillInstructions} characters, the limit of section 8`,
};
const NOT_ALLOWED: FailureDoc = {
  status: 403,
  code: 'api_v1_resource_not_allowed',
  section: '7.2',
  source: 'contract',
  when: 'workspace_id or a shared_user_ids entry is outside the scope',
};
/** 7.3 and 7.4, before a turn starts. */
const KEY_REQUIRED: FailureDoc = {
  status: 400,
  code: 'api_v1_idempotency_key_required',
  section: '7.3',
  source: 'contract',
  when: 'the Idempotency-Key header is missing',
};
const CONFLICT: FailureDoc = {
  status: 409,
  code: 'api_v1_idempotency_conflict',
  section: '7.3',
  source: 'contract',
  when: 'the key was used with a different body',
};
const IN_PROGRESS: FailureDoc = {
  status: 409,
  code: 'api_v1_turn_in_progress',
  section: '7.3',
  source: 'contract',
  when: "the key's turn is still running",
};
const BUSY: FailureDoc = {
  status: 409,
  code: 'api_v1_chat_busy',
  section: '7.3',
  source: 'contract',
  when: 'the chat already runs a turn (from the API or the application); data.message_id names it',
};
const CONTENT_TOO_LONG: FailureDoc = {
  status: 422,
  code: 'api_v1_content_too_long',
  section: '7.3',
  source: 'contract',
  when: `content over ${LIMITS.turnContent} characters, the limit of section 8`,
};
const TOO_MANY: FailureDoc = {
  status: 422,
  code: 'api_v1_too_many_attachments',
  section: '7.3',
  source: 'contract',
  when: 'too many attachments; the limit is not shown, the mock takes 20 ids in all',
};
/** What the stream answers before it starts beyond 7.4's two: the mock's readings of 7.3's codes. */
const asMock = (failure: FailureDoc, why: string): FailureDoc => ({
  ...failure,
  source: 'mock',
  when: `${failure.when}; ${why}`,
});
const STREAM_ONLY = '7.4 shows no other failure; the mock answers as 7.3 does';
/** 7.5, every answer endpoint. */
const ANSWER_FAILURES: readonly FailureDoc[] = [
  UNAUTHORIZED,
  ...BODY,
  SCOPE,
  {
    status: 404,
    code: 'api_v1_action_not_found',
    section: '7.5',
    source: 'contract',
    when: "the interaction does not exist, expired (110 s), is another kind's, or is not the caller's",
  },
  {
    status: 409,
    code: 'api_v1_action_not_pending',
    section: '7.5',
    source: 'contract',
    when: 'already resolved, claimed by another request first, or outcome unknown; do not retry',
  },
  {
    status: 409,
    code: 'api_v1_action_result_unknown',
    section: '7.5',
    source: 'contract',
    when: 'the conversation service received and rejected the decision (data.upstream_status); the interaction is closed; check the turn',
  },
  {
    status: 503,
    code: 'api_v1_service_unavailable',
    section: '7.5',
    source: 'contract',
    when: 'the decision never left (meta.error_details.retry_action retry); the interaction is pending again; retrying is safe',
  },
  {
    status: 503,
    code: 'api_v1_action_result_unknown',
    section: '7.5',
    source: 'contract',
    when: 'the decision left with no answer (retry_action check_status); do not resend; follow the stream or list messages',
    data: z.unknown(),
  },
  {
    status: 503,
    code: 'api_v1_interaction_backend_unavailable',
    section: '7.5',
    source: 'contract',
    when: 'interactions cannot be resolved now; an outage, retrying makes sense',
  },
];
const PAGE_DEFAULTS = { page: 1, size: LIMITS.pageSizeDefault };
const CHAT_READ = [UNAUTHORIZED, SCOPE, NOT_FOUND];

/** Every endpoint's summary, failures, defaults and example; an endpoint of `ENDPOINTS` not here does not compile. */
export const ENDPOINT_DOCS = {
  'skills.list': {
    summary: 'List the visible skills: own, the company’s and those shared with the user',
    failures: [UNAUTHORIZED, SCOPE, INVALID],
    defaults: PAGE_DEFAULTS,
  },
  'skills.create': {
    summary: 'Create a skill; answers 201 with it',
    failures: [
      UNAUTHORIZED,
      ...BODY,
      SCOPE,
      {
        status: 403,
        code: 'api_v1_resource_policy_create_denied',
        section: '7.2',
        source: 'contract',
        when: 'the credential’s allowlist forbids creating skills',
      },
      NOT_ALLOWED,
      REFS_INVALID,
      TEXT_TOO_LONG,
    ],
    defaults: { level: 'personal', visibility: 'public' },
    example: { name: 'Tone', instructions: 'Answer in two sentences.' },
  },
  'skills.get': { summary: 'Read a skill', failures: [UNAUTHORIZED, SCOPE, NOT_FOUND] },
  'skills.update': {
    summary: 'Update the fields sent; level is fixed; changed instructions are checked again',
    failures: [
      UNAUTHORIZED,
      ...BODY,
      SCOPE,
      asMock(NOT_ALLOWED, '7.2 marks it create; the mock checks an update the same way'),
      NOT_FOUND,
      REFS_INVALID,
      TEXT_TOO_LONG,
    ],
    example: { visibility: 'private' },
  },
  'skills.toggle': { summary: 'Flip is_active; no body', failures: [UNAUTHORIZED, SCOPE, NOT_FOUND] },
  'skills.delete': { summary: 'Delete a skill (softly)', failures: [UNAUTHORIZED, SCOPE, NOT_FOUND] },
  'users.list': {
    summary: 'The users of the credential’s company: the ids shared_user_ids takes',
    description:
      'Not part of the contract: 4.1 names GET /users as the source of user ids but shows neither its shape nor its scope. The shape here (`{ id }` items, any credential) is the reference mock’s.',
    failures: [UNAUTHORIZED, INVALID],
    defaults: PAGE_DEFAULTS,
  },
  'chats.list': {
    summary: 'The credential’s chats, newest first',
    failures: [UNAUTHORIZED, SCOPE, INVALID],
    defaults: PAGE_DEFAULTS,
  },
  'chats.create': {
    summary: 'Create an empty chat (200 or 201: 4.2 does not say which)',
    failures: [UNAUTHORIZED, ...BODY, SCOPE],
    defaults: { permission_mode: 'manual' },
    example: { name: 'Support', permission_mode: 'manual' },
  },
  'chats.get': { summary: 'Read a chat', failures: CHAT_READ },
  'chats.update': {
    summary: 'Rename a chat or set its favorite flag',
    failures: [UNAUTHORIZED, ...BODY, SCOPE, NOT_FOUND],
    example: { is_favorite: true },
  },
  'chats.delete': { summary: 'Delete a chat (softly)', failures: CHAT_READ },
  'chats.messages': {
    summary: 'The chat’s turns in chronological order, each with its prompt and created_at',
    failures: [...CHAT_READ, INVALID],
    defaults: PAGE_DEFAULTS,
  },
  'chats.catalog': {
    summary: 'Models, permission modes, and the libraries, skills and connectors blocks the scopes allow',
    description: 'A block whose scope the credential lacks is absent, not empty (2.5).',
    failures: [UNAUTHORIZED, SCOPE],
  },
  'turns.send': {
    summary: 'Send a turn and wait for the whole answer (permission_mode auto only)',
    description:
      'An unknown chat_id creates the chat. The same Idempotency-Key with the same body returns the stored outcome without running the turn again. The service cuts the turn off after 30 minutes (504): a client timeout must exceed it.',
    failures: [
      UNAUTHORIZED,
      INVALID_JSON,
      KEY_REQUIRED,
      TOO_LARGE,
      SCOPE,
      ATTACHMENT_SCOPE,
      CHAT_NOT_FOUND,
      {
        status: 409,
        code: 'api_v1_sync_requires_auto',
        section: '7.3',
        source: 'contract',
        when: 'permission_mode is not auto; its default is manual, hence required here',
      },
      CONFLICT,
      IN_PROGRESS,
      BUSY,
      {
        status: 409,
        code: 'api_v1_core_unavailable',
        section: '7.3',
        source: 'contract',
        when: 'another execution closed the turn: data.code idempotency_outcome_unknown; repeat with the same key',
        data: z.looseObject({ code: z.literal('idempotency_outcome_unknown') }),
      },
      CONTENT_TOO_LONG,
      TOO_MANY,
      INVALID,
      {
        status: 502,
        code: 'upstream_error',
        section: '7.3',
        source: 'contract',
        when: 'the turn failed downstream; message_code is the turn’s code, upstream_error or one from the model; data carries chat_id and message_id; the same body as the key’s replay',
        open: true,
      },
      {
        status: 502,
        code: 'interaction_in_auto_mode',
        section: '7.3',
        source: 'contract',
        when: 'the turn asked for an interaction, which this channel cannot answer: use the stream',
        data: turnRefDataSchema(),
      },
      {
        status: 503,
        code: 'api_v1_core_unavailable',
        section: '7.3',
        source: 'contract',
        when: 'the turn finished but its save is not confirmed: data.code persistence_failed (the mock also answers outcome_unknown); check with the same key before retrying',
        data: z.looseObject({ code: z.enum(['persistence_failed', 'outcome_unknown']) }),
      },
      {
        status: 504,
        code: 'turn_timeout',
        section: '7.3',
        source: 'contract',
        when: 'the turn exceeded 30 minutes; data carries chat_id and message_id',
      },
    ],
    example: { content: 'Summarise our refund policy.', permission_mode: 'auto' },
  },
  'turns.stream': {
    summary: 'Send a turn and stream its events (section 6); the only channel for permission_mode manual',
    description:
      'An unknown chat_id creates the chat. The turn finishes even if the client disconnects: it is saved and its outcome stored under the key, and the same key with the same body re-delivers that outcome (its events from message.start) without running anything again.',
    failures: [
      UNAUTHORIZED,
      INVALID_JSON,
      asMock(KEY_REQUIRED, '4.4 requires the header; 7.4 shows no code, the mock answers 7.3’s'),
      TOO_LARGE,
      SCOPE,
      ATTACHMENT_SCOPE,
      CHAT_NOT_FOUND,
      { ...BUSY, section: '7.4' },
      { ...CONFLICT, section: '7.4' },
      asMock(IN_PROGRESS, STREAM_ONLY),
      asMock(CONTENT_TOO_LONG, STREAM_ONLY),
      asMock(TOO_MANY, STREAM_ONLY),
      INVALID,
    ],
    defaults: { permission_mode: 'manual' },
    example: { content: 'Plan a trip to Lisbon.', permission_mode: 'manual' },
  },
  'turns.cancel': {
    summary: 'Cancel the running turn, or with action_id the turn of that interaction',
    description:
      'Idempotent: cancelling a finished turn still answers 200 (cancelled false). A 200 means the cancellation was delivered; the turn ends with message.cancelled. Cancelling never creates a chat.',
    failures: [
      UNAUTHORIZED,
      ...BODY,
      SCOPE,
      { ...NOT_FOUND, section: '7.6', when: 'the chat does not exist or belongs to another credential' },
      {
        status: 404,
        code: 'api_v1_action_not_found',
        section: '7.5',
        source: 'mock',
        when: 'action_id names no interaction of this credential’s turn in this chat; 4.6 requires it to, the code is 7.5’s',
      },
      {
        status: 502,
        code: 'api_v1_core_unavailable',
        section: '7.6',
        source: 'contract',
        when: 'the cancellation could not be delivered; the turn keeps running; retry',
        data: z.unknown(),
      },
    ],
    example: {},
  },
  'actions.approveTool': {
    summary: 'Answer a tool_approval interaction: one decision per tool the turn asked',
    failures: ANSWER_FAILURES,
    example: { action_id: 'act_1', decisions: [{ tool_use_id: 'toolu_1', approved: true }] },
  },
  'actions.respondPlan': {
    summary: 'Answer a plan_approval interaction',
    failures: ANSWER_FAILURES,
    example: { action_id: 'act_1', action: 'approve' },
  },
  'actions.respondElicitation': {
    summary: 'Answer an elicitation interaction',
    description:
      'content is required with accept and must be a flat object (string, number, boolean or null values) satisfying payload.requested_schema.',
    failures: ANSWER_FAILURES,
    example: { action_id: 'act_1', action: 'accept', content: { email: 'ada@example.com' } },
  },
  'actions.cancelAuth': {
    summary: 'Cancel an auth_required pause: the model continues without that tool',
    description: 'There is no endpoint to confirm a connection: connecting happens in the application.',
    failures: ANSWER_FAILURES,
    example: { action_id: 'act_1' },
  },
} as const satisfies Record<EndpointName, EndpointDoc>;
