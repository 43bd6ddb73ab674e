// The OpenAPI 3.1 document of API v1, read from the contract: the endpoint table (ENDPOINTS), what each
// endpoint answers besides success (ENDPOINT_DOCS, ERROR_DATA_SCHEMAS) and the zod schemas the client checks with,
// so that none can drift. scripts/openapi.mjs bundles this file and writes dist/openapi.json at build time.
import * as z from 'zod/mini';
import { CatalogSchema } from '../src/contract/catalog.js';
import { ChatDeletedSchema, ChatSchema } from '../src/contract/chat.js';
import { ENDPOINT_DOCS, type EndpointDoc, type FailureDoc } from '../src/contract/endpoint-docs.js';
import {
  ENDPOINT_NAMES,
  ENDPOINTS,
  type Endpoint,
  type EndpointName,
  PATH_PARAMS,
} from '../src/contract/endpoints.js';
import { ErrorBodySchema, MetaSchema } from '../src/contract/envelope.js';
import { ERROR_DATA_SCHEMAS } from '../src/contract/error-data.js';
import { EVENT_NAMES, EVENTS } from '../src/contract/events.js';
import {
  ActionResultSchema,
  ANSWERS,
  CancelResultSchema,
  ElicitationPayloadSchema,
  INTERACTION_KINDS,
  PlanApprovalPayloadSchema,
  ToolApprovalPayloadSchema,
} from '../src/contract/interactions.js';
import { LIMITS } from '../src/contract/limits.js';
import { SCOPES } from '../src/contract/scopes.js';
import { SkillDeletedSchema, SkillSchema } from '../src/contract/skill.js';
import { ATTACHMENT_SCOPES, AttachmentsSchema, MessageSchema, TurnSchema } from '../src/contract/turn.js';
import { DATA_EXAMPLES, errorExample, metaExample } from './openapi-examples.js';

type Json = Record<string, unknown>;
type Io = 'input' | 'output';

const SAFE_INT = Number.MAX_SAFE_INTEGER;
/** Where convo-mock listens by default (mock-conventions: `--host 127.0.0.1 --port 4010`). */
const MOCK_DEFAULT_URL = 'http://127.0.0.1:4010';
const UUID_PATTERN = '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';

/**
 * Drops what zod adds that says nothing here ($schema, the safe-integer floor, the date-time regex); a UUID's
 * pattern becomes `format: uuid`. An integer keeps its ceiling, 2^53-1: the client and the mock refuse more.
 */
function tidy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(tidy);
  if (typeof value !== 'object' || value === null) return value;
  const out: Json = {};
  for (const [key, inner] of Object.entries(value)) {
    if (key === '$schema') continue;
    if (key === 'minimum' && inner === -SAFE_INT) continue;
    if (key === 'pattern' && (value as Json).format === 'date-time') continue;
    if (key === 'pattern' && inner === UUID_PATTERN) out.format = 'uuid';
    else out[key] = tidy(inner);
  }
  return out;
}

/** What zod cannot say on its own: a custom schema (a JSON object), the character and byte limits of refines. */
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

/** A request's schema (`input`: unknown fields refused) or a response's (`output`: kept). */
const convert = (zod: z.ZodMiniType, io: Io = 'output') =>
  tidy(z.toJSONSchema(zod, { target: 'draft-2020-12', unrepresentable: 'any', io, override })) as Json;

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
/** JSON Schema's `if`/`then`, built so that no object literal holds a `then` (it would be a thenable). */
const when = (condition: Json, then: Json): Json =>
  Object.fromEntries([
    ['if', condition],
    ['then', then],
  ]);
const pascal = (text: string) => text.replace(/(^|[._-])(\w)/g, (_, __, c: string) => c.toUpperCase());

/** The shared response schemas, by name; anything else is written in place. */
const NAMED = new Map<z.ZodMiniType, string>([
  [SkillSchema, 'Skill'],
  [SkillDeletedSchema, 'SkillDeleted'],
  [ChatSchema, 'Chat'],
  [ChatDeletedSchema, 'ChatDeleted'],
  [TurnSchema, 'Turn'],
  [MessageSchema, 'Message'],
  [CatalogSchema, 'Catalog'],
  [ActionResultSchema, 'ActionResult'],
  [CancelResultSchema, 'CancelResult'],
]);
const PAYLOADS = {
  tool_approval: ToolApprovalPayloadSchema,
  plan_approval: PlanApprovalPayloadSchema,
  elicitation: ElicitationPayloadSchema,
} as const;

const COMPONENTS: Record<string, Json> = {};
for (const [zod, name] of NAMED) COMPONENTS[name] = convert(zod);
for (const [kind, zod] of Object.entries(PAYLOADS)) COMPONENTS[`${pascal(kind)}Payload`] = convert(zod);

const uuid = { type: 'string', format: 'uuid' };
COMPONENTS.Meta = { ...convert(MetaSchema), description: 'meta of an answer (2.1).' };
(COMPONENTS.Meta.properties as Json).request_id = { ...uuid, description: 'The request’s id.' };
COMPONENTS.ListMeta = {
  ...COMPONENTS.Meta,
  required: ['request_id', 'page', 'size', 'total'],
  properties: {
    request_id: uuid,
    page: { type: 'integer', minimum: 1, maximum: SAFE_INT, description: 'The page, from 1.' },
    size: { type: 'integer', minimum: 1, maximum: LIMITS.pageSizeMax },
    total: { type: 'integer', minimum: 0, maximum: SAFE_INT, description: 'Items across all pages.' },
  },
  description: 'meta of a list answer (2.1, 8).',
};
// Section 7 shows no layout of a failed answer beyond its fields: its request_id keeps no format.
COMPONENTS.ErrorBody = convert(ErrorBodySchema);
COMPONENTS.Attachments = {
  ...convert(AttachmentsSchema, 'input'),
  description: 'Resources attached to the turn; each list needs its own scope besides chat:write (4.3, 5).',
};
for (const [list, scope] of Object.entries(ATTACHMENT_SCOPES)) {
  const property = (COMPONENTS.Attachments.properties as Record<string, Json>)[list]!;
  property.description = `Requires \`${scope}\`; without it 403 api_token_scope_not_allowed.`;
  property['x-scope'] = scope;
}

/**
 * A request body, named after its endpoint (`components.requestBodies`), its schema with the defaults its
 * doc states and the facts zod cannot carry. A body lives among the request bodies, not the schemas, so that
 * a generator leaves a field with a default optional (openapi-typescript makes one required elsewhere).
 */
function bodyComponent(name: EndpointName, endpoint: Endpoint, doc: EndpointDoc): Json {
  const schema = convert(endpoint.body!, 'input');
  const properties = (schema.properties ?? {}) as Record<string, Json>;
  for (const [field, value] of Object.entries(doc.defaults ?? {}))
    if (properties[field]) properties[field].default = value;
  if (properties.attachments) properties.attachments = ref('Attachments');
  if (properties.model_id)
    properties.model_id.description =
      'A model id from the catalog (GET /api/v1/chat/catalog, 2.5: its COMPLETION models).';
  const published = BODY_FACTS[name]?.(schema) ?? schema;
  if (doc.example) published.examples = [doc.example];
  REQUEST_BODIES[`${pascal(name)}Body`] = {
    // A body whose every field is optional (4.2's create chat, 4.6's cancel) may be left out.
    required: schema.required !== undefined,
    content: { 'application/json': { schema: published } },
  };
  return { $ref: `#/components/requestBodies/${pascal(name)}Body` };
}

const REQUEST_BODIES: Record<string, Json> = {};

/** The 2.1 envelope around `data`; an endpoint outside the contract (`GET /users`) gets no guessed shape. */
function envelope(endpoint: Endpoint): Json {
  if (endpoint.outsideContract)
    return {
      description:
        'Its shape: not shown (4.1). The example is the reference mock’s answer: the list envelope of `{ id }` items.',
    };
  const data = endpoint.data!;
  const item = endpoint.list
    ? (data as unknown as { _zod: { def: { element: z.ZodMiniType } } })._zod.def.element
    : data;
  const named = NAMED.get(item);
  const schema = named ? ref(named) : convert(item);
  return {
    type: 'object',
    required: ['status', 'message', 'message_code', 'data', 'meta'],
    properties: {
      status: { type: 'string', const: 'success' },
      message: { type: 'string' },
      message_code: { type: 'string', const: 'api_v1_ok' },
      data: endpoint.list ? { type: 'array', items: schema } : schema,
      meta: ref(endpoint.list ? 'ListMeta' : 'Meta'),
    },
    additionalProperties: {},
  };
}

/** The `data` of a failure: its own, else its code's (`ERROR_DATA_SCHEMAS`), else unconstrained. */
function dataOf(failure: FailureDoc): Json | undefined {
  const zod = failure.data ?? (ERROR_DATA_SCHEMAS as Record<string, z.ZodMiniType>)[failure.code];
  return zod === undefined || zod._zod.def.type === 'unknown' ? undefined : convert(zod);
}

/** One status's answer: a variant per code (its `data`), and one for any other code where they are open. */
function errorResponse(status: number, failures: readonly FailureDoc[]): Json {
  const codes = [...new Set(failures.map((failure) => failure.code))];
  const variant = (messageCode: Json, data: Json | undefined) => ({
    type: 'object',
    required: ['message_code', ...(data ? ['data'] : [])],
    properties: { message_code: messageCode, ...(data ? { data } : {}) },
  });
  const variants = codes.map((code) =>
    variant({ type: 'string', const: code }, dataOf(failures.find((failure) => failure.code === code)!)),
  );
  const open = failures.find((failure) => failure.open);
  if (open) variants.push(variant({ type: 'string', not: { enum: codes } }, dataOf(open)));
  const lines = failures.map(
    (f) =>
      `- \`${f.code}\`${f.open ? ' (or the model’s own code)' : ''}: ${f.when} (${f.section}${f.source === 'mock' ? ', the reference mock’s reading' : ''}).`,
  );
  return {
    description: lines.join('\n'),
    content: {
      'application/json': {
        schema: { allOf: [ref('ErrorBody'), variants.length === 1 ? variants[0] : { anyOf: variants }] },
        example: errorExample(codes[0]!, status, failures[0]!.when),
      },
    },
  };
}

/** The component of an event's data: `message.action_required` -> `ActionRequiredEvent`. */
const eventComponent = (event: string) => `${pascal(event.replace(/^message\./, ''))}Event`;

/** The stream's answer (section 6). */
const STREAM = {
  description: [
    'Server-sent events (section 6): each an `event:` name and one JSON `data:` line; the client sends `Accept: text/event-stream` (4.4).',
    '`message.start` comes first; `message.delta` carries a new suffix, or with `replace: true` the full text, which replaces what was accumulated (provider failover);',
    `\`ping\` comes after every ${LIMITS.pingIntervalMs / 1000} s of silence (reset a watchdog, nothing else);`,
    '`message.action_required` appears only with `permission_mode: manual`, except `auth_required`, which may appear in any mode (6), and `plan_approval`, which may appear in any mode when the model decides to call its planning tool (4.5); it is answered through the actions endpoint of its kind, after which deltas continue.',
    'Exactly one terminal event (`message.completed`, `message.cancelled`, `message.error`) ends the stream, after the turn is saved; nothing follows it.',
    'The turn finishes even if the client disconnects; sending the same key again re-delivers the stored outcome from `message.start` without re-running anything.',
  ].join(' '),
  content: {
    'text/event-stream': {
      schema: {
        oneOf: EVENT_NAMES.map((event) => ({
          type: 'object',
          required: ['event', 'data'],
          properties: {
            event: { type: 'string', const: event },
            data: ref(eventComponent(event)),
          },
        })),
      },
      example: {
        event: 'message.start',
        data: {
          chat_id: '3fa85f64-5717-4562-b3fc-2c963f66afa6',
          message_id: 1,
          request_id: '0b6c7a39-7f0b-4d8e-9a3e-5f2d1c4b8a71',
        },
      },
    },
  },
};
for (const event of EVENT_NAMES) {
  COMPONENTS[eventComponent(event)] = {
    ...convert(EVENTS[event].schema),
    description: `The data of \`${event}\` (section 6)${EVENTS[event].terminal ? '; terminal' : ''}.`,
  };
}
(COMPONENTS.StartEvent!.properties as Json).request_id = uuid;
// 2.6: the payload is there for every kind and shaped by the known ones; a newer kind's is an object.
Object.assign(COMPONENTS.ActionRequiredEvent!, {
  required: ['kind', 'action_id', 'payload'],
  allOf: [
    ...Object.keys(PAYLOADS).map((kind) =>
      when(
        { properties: { kind: { const: kind } } },
        { properties: { payload: ref(`${pascal(kind)}Payload`) } },
      ),
    ),
    when(
      { properties: { kind: { const: 'auth_required' } } },
      { properties: { resolution: { const: 'connect_in_ui_or_cancel' } }, required: ['resolution'] },
    ),
  ],
});
Object.assign(COMPONENTS.ActionRequiredEvent!.properties as Json, {
  kind: {
    type: 'string',
    description: `Known: ${INTERACTION_KINDS.join(', ')}, each answered by its endpoint (${INTERACTION_KINDS.map((kind) => ANSWERS[kind].endpoint).join(', ')}); a newer service may add kinds (9).`,
    examples: [...INTERACTION_KINDS],
  },
  payload: {
    type: 'object',
    description: 'Shaped by kind (2.6); auth_required’s further fields are not shown.',
  },
  resolution: { type: 'string', description: 'auth_required: connect_in_ui_or_cancel.' },
});

/** Facts of the request bodies zod cannot carry (4.3, 4.5), by endpoint: each gives the schema to publish. */
const BODY_FACTS: Partial<Record<EndpointName, (schema: Json) => Json>> = {
  'turns.send': (schema) => ({
    ...schema,
    required: [...(schema.required as string[]), 'permission_mode'],
    properties: {
      ...(schema.properties as Json),
      permission_mode: {
        const: 'auto',
        description:
          'The service’s default is manual, which this endpoint answers with 409 api_v1_sync_requires_auto: send auto.',
      },
    },
  }),
  // Two shapes, so that a generated client cannot send accept without content: accept with a flat content,
  // decline or cancel with content optional.
  'actions.respondElicitation': ({ properties, required, ...schema }) => {
    const content = {
      type: 'object',
      description: 'A flat object satisfying payload.requested_schema.',
      additionalProperties: { type: ['string', 'number', 'boolean', 'null'] },
    };
    const shape = (action: Json, needs: string[]) => ({
      ...schema,
      properties: { ...(properties as Json), action, content },
      required: [...(required as string[]), ...needs],
    });
    return {
      description: 'content is required with accept and must be a flat object (4.5).',
      oneOf: [shape({ const: 'accept' }, ['content']), shape({ enum: ['decline', 'cancel'] }, [])],
    };
  },
};

/** A path's parameters, a list's query, the turn sends' key. */
function parameters(endpoint: Endpoint, doc: EndpointDoc): Json[] {
  const ids = [...endpoint.path.matchAll(/\{(\w+)\}/g)].map(([, id]) => ({
    name: id,
    in: 'path',
    required: true,
    schema: convert(PATH_PARAMS[id as keyof typeof PATH_PARAMS]),
  }));
  const query = endpoint.query
    ? Object.entries(convert(endpoint.query, 'input').properties as Record<string, Json>).map(
        ([name, schema]) => ({
          name,
          in: 'query',
          schema: {
            ...schema,
            ...(doc.defaults?.[name] === undefined ? {} : { default: doc.defaults[name] }),
          },
        }),
      )
    : [];
  const key = endpoint.idempotencyKey
    ? [
        {
          name: 'Idempotency-Key',
          in: 'header',
          required: true,
          schema: { type: 'string', minLength: 1 },
          description:
            'The same key with the same body returns the stored outcome without re-running the turn.',
        },
      ]
    : [];
  return [...ids, ...query, ...key];
}

/** The success answer's example: the envelope around the endpoint's example `data`. */
function successExample(name: Exclude<EndpointName, 'turns.stream'>): Json {
  const data = DATA_EXAMPLES[name];
  return {
    status: 'success',
    message: 'OK',
    message_code: 'api_v1_ok',
    data,
    meta: metaExample((ENDPOINTS[name] as Endpoint).list ? (data as unknown[]).length : undefined),
  };
}

function operation(name: EndpointName): Json {
  const endpoint: Endpoint = ENDPOINTS[name];
  const doc: EndpointDoc = ENDPOINT_DOCS[name];
  const scopes = endpoint.scopes.map((scope) => `\`${scope}\``).join(', ');
  const which =
    endpoint.success.length > 1 ? ` (${endpoint.success.join(' or ')}: the contract does not say which)` : '';
  const success =
    name === 'turns.stream'
      ? STREAM
      : {
          description: `Success${which}: the envelope of 2.1.`,
          content: { 'application/json': { schema: envelope(endpoint), example: successExample(name) } },
        };
  const byStatus = new Map<number, FailureDoc[]>();
  for (const failure of doc.failures)
    byStatus.set(failure.status, [...(byStatus.get(failure.status) ?? []), failure]);
  const params = parameters(endpoint, doc);
  return {
    operationId: name,
    summary: doc.summary,
    description: [
      endpoint.outsideContract ? '**Not part of the contract.**' : `Section ${endpoint.section}.`,
      endpoint.scopes.length > 0 ? `Scope: ${scopes}.` : 'Any valid credential.',
      doc.description ?? '',
      endpoint.list ? 'A query parameter it does not name is ignored (the reference mock’s reading).' : '',
    ]
      .join(' ')
      .trim(),
    tags: [name.split('.')[0]],
    security: [{ bearer: [...endpoint.scopes] }],
    ...(params.length > 0 ? { parameters: params } : {}),
    ...(endpoint.body
      ? {
          requestBody: bodyComponent(name, endpoint, doc),
        }
      : {}),
    responses: {
      ...Object.fromEntries(endpoint.success.map((status) => [String(status), success])),
      ...Object.fromEntries(
        [...byStatus]
          .sort(([a], [b]) => a - b)
          .map(([status, failures]) => [String(status), errorResponse(status, failures)]),
      ),
    },
    ...(endpoint.outsideContract ? { 'x-outside-contract': true } : {}),
  };
}

/** The OpenAPI 3.1 document of API v1. */
export function openApiDocument(version: string): Json {
  const paths: Record<string, Json> = {};
  for (const name of ENDPOINT_NAMES) {
    const { path, method } = ENDPOINTS[name];
    paths[`/api/v1/${path}`] = { ...paths[`/api/v1/${path}`], [method.toLowerCase()]: operation(name) };
  }
  const namespaces = [...new Set(ENDPOINT_NAMES.map((name) => name.split('.')[0]!))];
  return typed({
    openapi: '3.1.0',
    info: {
      title: 'Conversational AI Service API',
      version: `1 (convo-sdk ${version})`,
      description:
        'API v1, generated from the endpoint table and the zod schemas the convo-sdk client checks requests and responses with. Responses may carry fields a newer service adds; request bodies refuse unknown fields; a query parameter a list does not name is ignored (the reference mock’s reading). Each error lists its codes with the section that names them; a code marked "the reference mock’s reading" fills a gap the contract leaves open. Every answer has an example.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    // A concrete URL first (tools that mock the document, such as @mswjs/source, take it as it is): the
    // reference mock's default address (mock-conventions: --host 127.0.0.1 --port 4010).
    servers: [
      { url: MOCK_DEFAULT_URL, description: 'convo-mock with its default host and port' },
      {
        url: 'https://{host}',
        description: 'a deployment',
        variables: { host: { default: 'api.example.com' } },
      },
    ],
    security: [{ bearer: [] }],
    tags: namespaces.map((tag) => ({ name: tag, description: `client.${tag}` })),
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
      requestBodies: REQUEST_BODIES,
    },
  }) as Json;
}

/** Keys whose values are data, not schemas: left as they are. */
const DATA_KEYS = new Set(['example', 'examples', 'default']);

/**
 * Every `const` and `enum` with its `type` beside it, as tools that generate data or code from a schema
 * need (a `const` alone is any type to them).
 */
function typed(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(typed);
  if (typeof node !== 'object' || node === null) return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) out[key] = DATA_KEYS.has(key) ? value : typed(value);
  if (out.type !== undefined) return out;
  const values = 'const' in out ? [out.const] : Array.isArray(out.enum) ? out.enum : [];
  const types = [...new Set(values.map(jsonType))];
  if (types.length === 1) out.type = types[0];
  return out;
}

const jsonType = (value: unknown) =>
  value === null
    ? 'null'
    : Number.isInteger(value)
      ? 'integer'
      : Array.isArray(value)
        ? 'array'
        : typeof value === 'number'
          ? 'number'
          : typeof value;
