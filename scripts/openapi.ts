// The OpenAPI 3.1 document of API v1, built from the contract's zod schemas (src/contract/), the ones the
// client checks requests and responses with, so that neither can drift. scripts/openapi.mjs bundles this
// file and writes its document to dist/openapi.json at build time; test/conformance/openapi.test.ts checks it
// against the mock's routes and real answers.
import * as z from 'zod/mini';
import { CatalogSchema } from '../src/contract/catalog.js';
import { ChatCreateSchema, ChatDeletedSchema, ChatSchema, ChatUpdateSchema } from '../src/contract/chat.js';
import { ErrorBodySchema, MetaSchema } from '../src/contract/envelope.js';
import { EVENT_NAMES, EVENT_SCHEMAS, TERMINAL_EVENTS } from '../src/contract/events.js';
import {
  ActionResultSchema,
  ANSWERS,
  ApproveToolSchema,
  CancelAuthSchema,
  CancelResultSchema,
  CancelSchema,
  ElicitationPayloadSchema,
  PlanApprovalPayloadSchema,
  RespondElicitationSchema,
  RespondPlanSchema,
  ToolApprovalPayloadSchema,
} from '../src/contract/interactions.js';
import { LIMITS } from '../src/contract/limits.js';
import { SCOPES, type Scope } from '../src/contract/scopes.js';
import {
  SkillCreateSchema,
  SkillDeletedSchema,
  SkillSchema,
  SkillUpdateSchema,
} from '../src/contract/skill.js';
import { MessageSchema, TurnSchema, TurnSendSchema, TurnStreamBodySchema } from '../src/contract/turn.js';

type Json = Record<string, unknown>;

const SAFE_INT = Number.MAX_SAFE_INTEGER;

/** Drops what zod adds that says nothing here: `$schema`, the safe-integer bounds, the date-time regex. */
function tidy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(tidy);
  if (typeof value !== 'object' || value === null) return value;
  const out: Json = {};
  for (const [key, inner] of Object.entries(value)) {
    if (key === '$schema') continue;
    if (key === 'minimum' && inner === -SAFE_INT) continue;
    if (key === 'maximum' && inner === SAFE_INT) continue;
    if (key === 'pattern' && (value as Json).format === 'date-time') continue;
    out[key] = tidy(inner);
  }
  return out;
}

/** What zod cannot say on its own: the one custom schema (a JSON object), the character limits of refines. */
function override(ctx: { zodSchema: unknown; jsonSchema: Json }): void {
  const def = (ctx.zodSchema as { _zod: { def: { type: string; checks?: unknown[] } } })._zod.def;
  if (def.type === 'custom') Object.assign(ctx.jsonSchema, { type: 'object', additionalProperties: {} });
  for (const check of def.checks ?? []) {
    const params = (check as { _zod?: { def?: { params?: { limit?: number; unit?: string } } } })._zod?.def
      ?.params;
    if (params?.unit === 'characters') ctx.jsonSchema.maxLength = params.limit;
    if (params?.unit === 'bytes') ctx.jsonSchema.description = `At most ${params.limit} bytes of UTF-8 JSON.`;
  }
}

/** A request body's schema (what the client sends: unknown fields refused) or a response's (kept). */
const schema = (zod: z.ZodMiniType, io: 'input' | 'output' = 'output') =>
  tidy(z.toJSONSchema(zod, { target: 'draft-2020-12', unrepresentable: 'any', io, override })) as Json;

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** The named schemas, each from the contract. */
const COMPONENTS: Record<string, Json> = {
  Meta: schema(MetaSchema),
  ListMeta: {
    ...schema(MetaSchema),
    required: ['request_id', 'page', 'size', 'total'],
    description: 'meta of a list answer (2.1): page, size and total are present.',
  },
  ErrorBody: schema(ErrorBodySchema),
  Skill: schema(SkillSchema),
  SkillCreate: schema(SkillCreateSchema, 'input'),
  SkillUpdate: schema(SkillUpdateSchema, 'input'),
  SkillDeleted: schema(SkillDeletedSchema),
  Chat: schema(ChatSchema),
  ChatCreate: schema(ChatCreateSchema, 'input'),
  ChatUpdate: schema(ChatUpdateSchema, 'input'),
  ChatDeleted: schema(ChatDeletedSchema),
  Turn: schema(TurnSchema),
  Message: schema(MessageSchema),
  TurnSend: schema(TurnSendSchema, 'input'),
  TurnStreamBody: schema(TurnStreamBodySchema, 'input'),
  Catalog: schema(CatalogSchema),
  ToolApprovalPayload: schema(ToolApprovalPayloadSchema),
  PlanApprovalPayload: schema(PlanApprovalPayloadSchema),
  ElicitationPayload: schema(ElicitationPayloadSchema),
  ApproveTool: schema(ApproveToolSchema, 'input'),
  RespondPlan: schema(RespondPlanSchema, 'input'),
  RespondElicitation: schema(RespondElicitationSchema, 'input'),
  CancelAuth: schema(CancelAuthSchema, 'input'),
  Cancel: schema(CancelSchema, 'input'),
  ActionResult: schema(ActionResultSchema),
  CancelResult: schema(CancelResultSchema),
  User: {
    type: 'object',
    properties: { id: { type: 'integer' } },
    required: ['id'],
    additionalProperties: {},
  },
};

/** The name of an event's payload schema: `message.start` -> `StartEvent`. */
export const eventSchemaName = (event: string) =>
  `${event
    .replace(/^message\./, '')
    .split('_')
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('')}Event`;

for (const event of EVENT_NAMES) {
  COMPONENTS[eventSchemaName(event)] = {
    ...schema(EVENT_SCHEMAS[event]),
    description: `The data of the \`${event}\` event (section 6)${
      (TERMINAL_EVENTS as readonly string[]).includes(event) ? '; terminal' : ''
    }.`,
  };
}

// An interaction's payload, by kind (2.6); auth_required's is not shown.
(COMPONENTS.ActionRequiredEvent as { properties: Json }).properties.payload = {
  description: 'Shaped by kind (2.6).',
  anyOf: [
    ref('ToolApprovalPayload'),
    ref('PlanApprovalPayload'),
    ref('ElicitationPayload'),
    { type: 'object' },
  ],
};

/** A failure the contract names: status, codes and when. */
interface Failure {
  status: number;
  codes: string[];
  when: string;
}

const UNAUTHORIZED: Failure = {
  status: 401,
  codes: ['api_v1_unauthorized'],
  when: 'no credential, or one the service does not know (5)',
};
const SCOPE: Failure = {
  status: 403,
  codes: ['api_token_scope_not_allowed'],
  when: "the credential lacks the endpoint's scope; data.required_scopes lists the missing ones (5)",
};
const NOT_FOUND: Failure = {
  status: 404,
  codes: ['api_v1_not_found'],
  when: "does not exist, or is outside the credential's scope: both answer the same, never 403 (5, 7.1)",
};
/** 7.2: skills, create and update. */
const SKILL_WRITE: Failure[] = [
  {
    status: 403,
    codes: ['api_v1_resource_policy_create_denied', 'api_v1_resource_not_allowed'],
    when: 'the allowlist forbids creating; workspace_id or a shared_user_ids entry is outside the scope (7.2)',
  },
  {
    status: 422,
    codes: ['prompt_refs_invalid', 'prompt_text_too_long'],
    when: `instructions cite resources that cannot be used, or exceed ${LIMITS.skillInstructions} characters (7.2)`,
  },
];
/** 7.3: the synchronous send. */
const SYNC_SEND: Failure[] = [
  { status: 400, codes: ['api_v1_idempotency_key_required'], when: 'the Idempotency-Key header is missing' },
  {
    status: 403,
    codes: ['api_token_scope_not_allowed'],
    when: 'the scope or an attachment scope is missing',
  },
  {
    status: 409,
    codes: [
      'api_v1_sync_requires_auto',
      'api_v1_idempotency_conflict',
      'api_v1_turn_in_progress',
      'api_v1_chat_busy',
      'api_v1_core_unavailable',
    ],
    when: 'not auto; key reused with another body; key still running; chat busy; outcome closed elsewhere (7.3)',
  },
  {
    status: 422,
    codes: ['api_v1_content_too_long', 'api_v1_too_many_attachments'],
    when: `content over ${LIMITS.turnContent} characters; too many attachments (7.3)`,
  },
  {
    status: 502,
    codes: ['upstream_error', 'interaction_in_auto_mode'],
    when: 'the turn failed downstream (data: chat_id, message_id); it asked for an interaction (7.3)',
  },
  { status: 503, codes: ['api_v1_core_unavailable'], when: 'finished but the save is not confirmed (7.3)' },
  { status: 504, codes: ['turn_timeout'], when: 'the turn exceeded 30 minutes (7.3)' },
];
/** 7.4: the streaming send, before the stream starts. */
const STREAM_SEND: Failure[] = [
  { status: 400, codes: ['api_v1_idempotency_key_required'], when: 'the Idempotency-Key header is missing' },
  {
    status: 403,
    codes: ['api_token_scope_not_allowed'],
    when: 'the scope or an attachment scope is missing',
  },
  {
    status: 409,
    codes: ['api_v1_chat_busy', 'api_v1_idempotency_conflict'],
    when: 'the chat runs a turn; the key was used with another body (7.4)',
  },
];
/** 7.5: the four answer endpoints. */
const ANSWER: Failure[] = [
  {
    status: 404,
    codes: ['api_v1_action_not_found'],
    when: "no such interaction, expired, or not the caller's",
  },
  {
    status: 409,
    codes: ['api_v1_action_not_pending', 'api_v1_action_result_unknown'],
    when: 'already resolved or claimed; the conversation service rejected the decision (7.5)',
  },
  {
    status: 503,
    codes: [
      'api_v1_service_unavailable',
      'api_v1_action_result_unknown',
      'api_v1_interaction_backend_unavailable',
    ],
    when: 'the decision never left (retry); it left with no answer (check status); interactions unavailable (7.5)',
  },
];
/** 7.6: cancel. */
const CANCEL: Failure[] = [
  NOT_FOUND,
  { status: 502, codes: ['api_v1_core_unavailable'], when: 'the cancellation could not be delivered (7.6)' },
];

/** Error responses by status: one schema per status with its codes as an enum. */
function errorResponses(failures: Failure[]): Json {
  const byStatus = new Map<number, Failure[]>();
  for (const failure of [UNAUTHORIZED, ...failures]) {
    byStatus.set(failure.status, [...(byStatus.get(failure.status) ?? []), failure]);
  }
  const responses: Json = {};
  for (const [status, list] of [...byStatus].sort(([a], [b]) => a - b)) {
    const codes = [...new Set(list.flatMap((failure) => failure.codes))];
    responses[String(status)] = {
      description: list.map((failure) => `${failure.codes.join(', ')}: ${failure.when}`).join('. '),
      content: {
        'application/json': {
          schema: {
            allOf: [ref('ErrorBody'), { type: 'object', properties: { message_code: { enum: codes } } }],
          },
        },
      },
    };
  }
  return responses;
}

/** The success envelope of 2.1 around `data`. */
function envelope(data: Json, list: boolean): Json {
  return {
    type: 'object',
    required: ['status', 'message', 'message_code', 'data', 'meta'],
    properties: {
      status: { const: 'success' },
      message: { type: 'string' },
      message_code: { const: 'api_v1_ok' },
      data: list ? { type: 'array', items: data } : data,
      meta: ref(list ? 'ListMeta' : 'Meta'),
    },
    additionalProperties: {},
  };
}

const PAGE = [
  { name: 'page', in: 'query', schema: { type: 'integer', minimum: 1, default: 1 }, description: 'from 1' },
  {
    name: 'size',
    in: 'query',
    schema: { type: 'integer', minimum: 1, maximum: LIMITS.pageSizeMax, default: LIMITS.pageSizeDefault },
    description: `at most ${LIMITS.pageSizeMax}`,
  },
];
const SKILL_ID = { name: 'skill_id', in: 'path', required: true, schema: { type: 'integer' } };
const CHAT_ID = { name: 'chat_id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } };
const KEY = {
  name: 'Idempotency-Key',
  in: 'header',
  required: true,
  schema: { type: 'string', minLength: 1 },
  description: 'The same key with the same body returns the stored outcome without re-running the turn.',
};

interface Operation {
  method: 'get' | 'post' | 'patch' | 'delete';
  path: string;
  id: string;
  summary: string;
  scope: Scope | undefined;
  tag: string;
  parameters?: Json[];
  body?: string;
  /** The success statuses (default 200): more than one when the contract does not say which. */
  statuses?: readonly number[];
  data?: Json;
  list?: boolean;
  stream?: boolean;
  failures: Failure[];
}

const sk = '/api/v1/skills';
const ch = '/api/v1/chats';
const one = `${ch}/{chat_id}`;

/** Every endpoint of section 4, and `GET /users` that 4.1 names. */
export const OPERATIONS: Operation[] = [
  {
    method: 'get',
    path: sk,
    id: 'listSkills',
    summary: 'List visible skills',
    scope: 'skills:read',
    tag: 'Skills',
    parameters: PAGE,
    data: ref('Skill'),
    list: true,
    failures: [SCOPE],
  },
  {
    method: 'post',
    path: sk,
    id: 'createSkill',
    summary: 'Create a skill',
    scope: 'skills:write',
    tag: 'Skills',
    body: 'SkillCreate',
    statuses: [201],
    data: ref('Skill'),
    failures: [SCOPE, ...SKILL_WRITE],
  },
  {
    method: 'get',
    path: `${sk}/{skill_id}`,
    id: 'getSkill',
    summary: 'Read a skill',
    scope: 'skills:read',
    tag: 'Skills',
    parameters: [SKILL_ID],
    data: ref('Skill'),
    failures: [SCOPE, NOT_FOUND],
  },
  {
    method: 'patch',
    path: `${sk}/{skill_id}`,
    id: 'updateSkill',
    summary: 'Update the fields sent',
    scope: 'skills:write',
    tag: 'Skills',
    parameters: [SKILL_ID],
    body: 'SkillUpdate',
    data: ref('Skill'),
    failures: [SCOPE, NOT_FOUND, ...SKILL_WRITE],
  },
  {
    method: 'patch',
    path: `${sk}/{skill_id}/toggle`,
    id: 'toggleSkill',
    summary: 'Flip is_active',
    scope: 'skills:write',
    tag: 'Skills',
    parameters: [SKILL_ID],
    data: ref('Skill'),
    failures: [SCOPE, NOT_FOUND],
  },
  {
    method: 'delete',
    path: `${sk}/{skill_id}`,
    id: 'deleteSkill',
    summary: 'Delete a skill (softly)',
    scope: 'skills:write',
    tag: 'Skills',
    parameters: [SKILL_ID],
    data: ref('SkillDeleted'),
    failures: [SCOPE, NOT_FOUND],
  },
  {
    method: 'get',
    path: '/api/v1/users',
    id: 'listUsers',
    summary:
      "The users of the credential's company, the ids shared_user_ids takes (shape and scope not shown by the contract)",
    scope: undefined,
    tag: 'Skills',
    parameters: PAGE,
    data: ref('User'),
    list: true,
    failures: [],
  },
  {
    method: 'get',
    path: ch,
    id: 'listChats',
    summary: "The credential's chats, newest first",
    scope: 'chat:read',
    tag: 'Chats',
    parameters: [{ name: 'is_favorite', in: 'query', schema: { type: 'boolean' } }, ...PAGE],
    data: ref('Chat'),
    list: true,
    failures: [SCOPE],
  },
  {
    method: 'post',
    path: ch,
    id: 'createChat',
    summary: 'Create an empty chat',
    scope: 'chat:write',
    tag: 'Chats',
    body: 'ChatCreate',
    // 4.2 does not say which success status creation answers; the conformance kit accepts either.
    statuses: [200, 201],
    data: ref('Chat'),
    failures: [SCOPE],
  },
  {
    method: 'get',
    path: one,
    id: 'getChat',
    summary: 'Read a chat',
    scope: 'chat:read',
    tag: 'Chats',
    parameters: [CHAT_ID],
    data: ref('Chat'),
    failures: [SCOPE, NOT_FOUND],
  },
  {
    method: 'patch',
    path: one,
    id: 'updateChat',
    summary: 'Rename a chat or set its favorite flag',
    scope: 'chat:write',
    tag: 'Chats',
    parameters: [CHAT_ID],
    body: 'ChatUpdate',
    data: ref('Chat'),
    failures: [SCOPE, NOT_FOUND],
  },
  {
    method: 'delete',
    path: one,
    id: 'deleteChat',
    summary: 'Delete a chat (softly)',
    scope: 'chat:write',
    tag: 'Chats',
    parameters: [CHAT_ID],
    data: ref('ChatDeleted'),
    failures: [SCOPE, NOT_FOUND],
  },
  {
    method: 'get',
    path: `${one}/messages`,
    id: 'listMessages',
    summary: "The chat's turns, oldest first",
    scope: 'chat:read',
    tag: 'Turns',
    parameters: [CHAT_ID, ...PAGE],
    data: ref('Message'),
    list: true,
    failures: [SCOPE, NOT_FOUND],
  },
  {
    method: 'post',
    path: `${one}/messages`,
    id: 'sendTurn',
    summary:
      'Send a turn and wait for the answer (permission_mode auto only); an unknown chat_id creates the chat',
    scope: 'chat:write',
    tag: 'Turns',
    parameters: [CHAT_ID, KEY],
    body: 'TurnSend',
    data: ref('Turn'),
    failures: SYNC_SEND,
  },
  {
    method: 'post',
    path: `${one}/messages/stream`,
    id: 'streamTurn',
    summary: 'Send a turn and stream its events; an unknown chat_id creates the chat',
    scope: 'chat:write',
    tag: 'Turns',
    parameters: [CHAT_ID, KEY],
    body: 'TurnStreamBody',
    stream: true,
    failures: STREAM_SEND,
  },
  {
    method: 'get',
    path: '/api/v1/chat/catalog',
    id: 'getCatalog',
    summary: 'Models, permission modes, and the libraries, skills and connectors blocks the scopes allow',
    scope: 'chat:read',
    tag: 'Chats',
    data: ref('Catalog'),
    failures: [SCOPE],
  },
  ...(
    [
      ['tool_approval', 'ApproveTool', 'Answer a tool_approval interaction'],
      ['plan_approval', 'RespondPlan', 'Answer a plan_approval interaction'],
      ['elicitation', 'RespondElicitation', 'Answer an elicitation interaction'],
      ['auth_required', 'CancelAuth', 'Cancel an auth_required pause'],
    ] as const
  ).map(([kind, body, summary]) => ({
    method: 'post' as const,
    path: `${one}/actions/${ANSWERS[kind].endpoint}`,
    id: body.charAt(0).toLowerCase() + body.slice(1),
    summary,
    scope: 'chat:write' as const,
    tag: 'Interactions',
    parameters: [CHAT_ID],
    body,
    data: ref('ActionResult'),
    failures: [SCOPE, ...ANSWER],
  })),
  {
    method: 'post',
    path: `${one}/actions/cancel`,
    id: 'cancelTurn',
    summary: 'Cancel the running turn; idempotent, never creates a chat',
    scope: 'chat:write',
    tag: 'Interactions',
    parameters: [CHAT_ID],
    body: 'Cancel',
    data: ref('CancelResult'),
    failures: [SCOPE, ...CANCEL],
  },
];

/** The stream's events: each one `event:` name with its `data:` schema. */
function streamSchema(): Json {
  return {
    description:
      'Server-sent events (section 6): each has an `event:` name and a JSON `data:` line. message.start comes first; exactly one terminal event (message.completed, message.cancelled, message.error) ends the stream, after the turn is saved, and nothing follows it.',
    oneOf: EVENT_NAMES.map((event) => ({
      type: 'object',
      required: ['event', 'data'],
      properties: { event: { const: event }, data: ref(eventSchemaName(event)) },
    })),
  };
}

function operation(op: Operation): Json {
  const statuses = op.statuses ?? [200];
  const which = statuses.length > 1 ? ` (${statuses.join(' or ')}: the contract does not say which)` : '';
  const success: Json = op.stream
    ? {
        description: 'The turn as server-sent events.',
        content: { 'text/event-stream': { schema: streamSchema() } },
      }
    : {
        description: `Success${which}: the envelope of 2.1.`,
        content: { 'application/json': { schema: envelope(op.data ?? {}, op.list === true) } },
      };
  return {
    operationId: op.id,
    summary: op.summary,
    description: op.scope ? `Scope: \`${op.scope}\`.` : 'Any valid credential.',
    tags: [op.tag],
    security: [{ bearer: op.scope ? [op.scope] : [] }],
    ...(op.parameters ? { parameters: op.parameters } : {}),
    ...(op.body
      ? {
          requestBody: {
            required: op.body !== 'Cancel',
            content: { 'application/json': { schema: ref(op.body) } },
          },
        }
      : {}),
    responses: {
      ...Object.fromEntries(statuses.map((status) => [String(status), success])),
      ...errorResponses(op.failures),
    },
  };
}

/** The OpenAPI 3.1 document of API v1. */
export function openApiDocument(version: string): Json {
  const paths: Record<string, Json> = {};
  for (const op of OPERATIONS) paths[op.path] = { ...paths[op.path], [op.method]: operation(op) };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Conversational AI Service API',
      version: `1 (convo-sdk ${version})`,
      description:
        'API v1, generated from the zod schemas the convo-sdk client checks requests and responses with. Responses may carry fields a newer service adds; request bodies refuse unknown fields.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: 'https://{host}', variables: { host: { default: 'api.example.com' } } }],
    security: [{ bearer: [] }],
    tags: [
      { name: 'Skills', description: 'Reusable instructions (4.1).' },
      { name: 'Chats', description: 'Chats and the catalog (4.2).' },
      { name: 'Turns', description: 'Turns, synchronous and streamed (4.3, 4.4, 6).' },
      { name: 'Interactions', description: 'Answers to interactions, and cancel (4.5, 4.6).' },
    ],
    paths,
    components: {
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description: `A bearer credential limited by scopes: ${SCOPES.join(', ')} (section 5).`,
        },
      },
      schemas: COMPONENTS,
    },
  };
}
