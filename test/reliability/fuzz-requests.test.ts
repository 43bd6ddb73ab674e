import fc from 'fast-check';
import { beforeAll, describe, expect } from 'vitest';
import { ApiError, type Client, ConvoError, ValidationError } from '../../src/index.js';
import { itFuzzes } from '../support/fuzz.js';
import {
  bool,
  chatIdArb,
  int,
  intList,
  metadata,
  oneOf,
  queryInt,
  str,
} from '../support/input-arbitraries.js';
import { type MockTarget, TOKEN, useTarget } from '../support/mock-targets.js';

/**
 * Random request bodies for every endpoint. Each is either refused by the client before anything is sent,
 * with a `ValidationError` naming a field of that endpoint, and then the mock refuses the same request too
 * (the client is not stricter than the service); or it is sent, and the mock does not refuse it as
 * invalid input (the client is not laxer), save for the rules only the service can check.
 */

type Body = Record<string, unknown>;

/** What an endpoint's fuzzer needs. */
interface Endpoint {
  name: string;
  /** The body's fields and their values; any subset of the optional ones is sent. */
  fields: Record<string, fc.Arbitrary<unknown>>;
  /** Fields the contract requires: present, save one time in ten. */
  required?: string[];
  /** A path parameter, if the endpoint has one. */
  param?: 'chat_id' | 'skill_id';
  /** Query endpoints: the fields travel in the query string. */
  query?: boolean;
  call(client: Client, body: Body, param: string | number): Promise<unknown>;
  /** The request the client would have sent: method, path and JSON body. */
  raw(body: Body, param: string | number): { method: string; path: string; body?: unknown };
}

/** Refusals the client cannot foresee: they depend on the service's state or limits it does not publish. */
function serviceOnly(error: ApiError): boolean {
  if (error.code === 'api_v1_too_many_attachments' || error.code === 'prompt_refs_invalid') return true;
  const issues = Array.isArray(error.data) ? (error.data as Array<{ field?: string }>) : [];
  // model_id must be a COMPLETION model of the catalog, which only the service knows.
  return error.code === 'api_v1_validation_error' && issues.every((issue) => issue.field === 'model_id');
}

const sendFields = {
  content: str(64_000),
  model_id: int(fc.constantFrom(1, 2, 3)),
  attachments: fc.record(
    {
      workspace_ids: intList(fc.constantFrom(1, 2)),
      file_ids: intList(fc.constantFrom(11, 12, 21)),
      skill_ids: intList(),
      mcp_server_ids: intList(fc.constantFrom(1, 2)),
    },
    { requiredKeys: [] },
  ),
  metadata: metadata(),
};

const page = {
  page: queryInt(fc.integer({ min: 1, max: 3 })),
  size: queryInt(fc.integer({ min: 1, max: 200 })),
};

let chatId = '';
let skillId = 0;
/** A value as it would appear in a URL (fast-check's null-prototype objects have no toString). */
const text = (value: unknown) =>
  typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
const chats = (id: unknown) => `/api/v1/chats/${encodeURIComponent(text(id))}`;
const queryOf = (body: Body) =>
  `?${Object.entries(body)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${encodeURIComponent(text(v))}`)
    .join('&')}`;

const ENDPOINTS: Endpoint[] = [
  {
    name: '4.1 POST /skills',
    required: ['name', 'instructions'],
    fields: {
      name: str(255),
      instructions: str(12_000),
      description: str(500),
      icon: str(),
      level: oneOf(['personal', 'company', 'workspace']),
      visibility: oneOf(['public', 'private', 'shared']),
      workspace_id: int(fc.constantFrom(1, 2)),
      shared_user_ids: intList(fc.constantFrom(1, 2, 3)),
    },
    call: (client, body) => client.skills.create(body as never),
    raw: (body) => ({ method: 'POST', path: '/api/v1/skills', body }),
  },
  {
    name: '4.1 PATCH /skills/{skill_id}',
    param: 'skill_id',
    fields: {
      name: str(255),
      instructions: str(12_000),
      description: str(500),
      icon: str(),
      visibility: oneOf(['public', 'private', 'shared']),
      workspace_id: int(fc.constantFrom(1, 2)),
      shared_user_ids: intList(fc.constantFrom(1, 2, 3)),
      level: oneOf(['personal']),
    },
    call: (client, body, id) => client.skills.update(id as number, body),
    raw: (body, id) => ({ method: 'PATCH', path: `/api/v1/skills/${encodeURIComponent(text(id))}`, body }),
  },
  {
    name: '4.1, 8 GET /skills',
    query: true,
    fields: page,
    call: (client, body) => client.skills.list(body as never),
    raw: (body) => ({ method: 'GET', path: `/api/v1/skills${queryOf(body)}` }),
  },
  {
    name: '4.2 POST /chats',
    fields: {
      name: str(200),
      model_id: int(fc.constantFrom(1, 2, 3)),
      permission_mode: oneOf(['manual', 'auto']),
    },
    call: (client, body) => client.chats.create(body as never),
    raw: (body) => ({ method: 'POST', path: '/api/v1/chats', body }),
  },
  {
    name: '4.2 PATCH /chats/{chat_id}',
    param: 'chat_id',
    fields: { name: str(), is_favorite: bool() },
    call: (client, body, id) => client.chats.update(id as string, body as never),
    raw: (body, id) => ({ method: 'PATCH', path: chats(id), body }),
  },
  {
    name: '4.2, 8 GET /chats',
    query: true,
    fields: { ...page, is_favorite: fc.oneof(fc.boolean(), fc.constantFrom(0, 1, null)) },
    call: (client, body) => client.chats.list(body as never),
    raw: (body) => ({ method: 'GET', path: `/api/v1/chats${queryOf(body)}` }),
  },
  {
    name: '4.2, 8 GET /chats/{chat_id}/messages',
    param: 'chat_id',
    query: true,
    fields: page,
    call: (client, body, id) => client.chats.messages(id as string, body as never),
    raw: (body, id) => ({ method: 'GET', path: `${chats(id)}/messages${queryOf(body)}` }),
  },
  {
    name: '4.3 POST /chats/{chat_id}/messages',
    required: ['content'],
    param: 'chat_id',
    fields: { ...sendFields, permission_mode: oneOf(['auto']) },
    call: (client, body, id) => client.turns.send(id as string, body as never),
    // The client sends permission_mode auto; a value it was given travels as given.
    raw: (body, id) => ({
      method: 'POST',
      path: `${chats(id)}/messages`,
      body: { ...body, permission_mode: body.permission_mode === undefined ? 'auto' : body.permission_mode },
    }),
  },
  {
    name: '4.4 POST /chats/{chat_id}/messages/stream',
    required: ['content'],
    param: 'chat_id',
    fields: { ...sendFields, permission_mode: oneOf(['manual', 'auto']) },
    call: (client, body, id) => client.turns.stream(id as string, body as never).finalTurn(),
    raw: (body, id) => ({ method: 'POST', path: `${chats(id)}/messages/stream`, body }),
  },
  {
    name: '4.5 POST /chats/{chat_id}/actions/approve-tool',
    required: ['action_id', 'decisions'],
    param: 'chat_id',
    fields: {
      action_id: str(),
      decisions: fc.oneof(
        fc.array(fc.record({ tool_use_id: str(), approved: bool() }, { requiredKeys: [] }), { maxLength: 3 }),
        fc.constant([]),
      ),
    },
    call: (client, body, id) => client.actions.approveTool(id as string, body as never),
    raw: (body, id) => ({ method: 'POST', path: `${chats(id)}/actions/approve-tool`, body }),
  },
  {
    name: '4.5 POST /chats/{chat_id}/actions/respond-plan',
    required: ['action_id', 'action'],
    param: 'chat_id',
    fields: { action_id: str(), action: oneOf(['approve', 'reject']) },
    call: (client, body, id) => client.actions.respondPlan(id as string, body as never),
    raw: (body, id) => ({ method: 'POST', path: `${chats(id)}/actions/respond-plan`, body }),
  },
  {
    name: '4.5 POST /chats/{chat_id}/actions/respond-elicitation',
    required: ['action_id', 'action'],
    param: 'chat_id',
    fields: {
      action_id: str(),
      action: oneOf(['accept', 'decline', 'cancel']),
      content: fc.oneof(
        fc.dictionary(
          fc.string({ maxLength: 5 }),
          fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null)),
        ),
        fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 2 }),
        fc.oneof(fc.string(), fc.integer(), fc.constant(null)),
      ),
    },
    call: (client, body, id) => client.actions.respondElicitation(id as string, body as never),
    raw: (body, id) => ({ method: 'POST', path: `${chats(id)}/actions/respond-elicitation`, body }),
  },
  {
    name: '4.5 POST /chats/{chat_id}/actions/cancel-auth',
    required: ['action_id'],
    param: 'chat_id',
    fields: { action_id: str() },
    call: (client, body, id) => client.actions.cancelAuth(id as string, body as never),
    raw: (body, id) => ({ method: 'POST', path: `${chats(id)}/actions/cancel-auth`, body }),
  },
  {
    name: '4.6 POST /chats/{chat_id}/actions/cancel',
    param: 'chat_id',
    fields: { action_id: str() },
    call: (client, body, id) => client.turns.cancel(id as string, body as never),
    raw: (body, id) => ({ method: 'POST', path: `${chats(id)}/actions/cancel`, body }),
  },
];

/** What the mock answers to a request sent past the client. */
async function rawReply(target: MockTarget, request: { method: string; path: string; body?: unknown }) {
  let json: string | undefined;
  try {
    json = request.body === undefined ? undefined : JSON.stringify(request.body);
  } catch {
    // No JSON holds it (a BigInt): no request could carry it, so the service can only refuse it.
    return { status: 400, code: 'not serializable' };
  }
  const response = await target.mock.handle(
    new Request(new URL(request.path, target.url), {
      method: request.method,
      headers: {
        authorization: `Bearer ${TOKEN}`,
        'content-type': 'application/json',
        'idempotency-key': crypto.randomUUID(),
      },
      ...(json === undefined ? {} : { body: json }),
    }),
  );
  if (response.headers.get('content-type')?.startsWith('text/event-stream')) {
    await response.body?.cancel();
    return { status: response.status, code: 'stream' };
  }
  const body = (await response.json()) as { message_code?: string };
  return { status: response.status, code: body.message_code };
}

/** Fields no body of the contract has. */
const UNKNOWN_FIELDS = ['x_extra', 'note', 'meta'];

describe('fuzz: random request bodies for every endpoint', () => {
  const target = useTarget();
  beforeAll(async () => {
    const client = target.client();
    chatId = (await client.chats.create({})).id;
    skillId = (await client.skills.create({ name: 'Tone', instructions: 'Be brief.' })).id;
  });

  for (const endpoint of ENDPOINTS) {
    const params: fc.Arbitrary<string | number> =
      endpoint.param === 'chat_id'
        ? chatIdArb(() => chatId)
        : endpoint.param === 'skill_id'
          ? // No text: "1" is a type error for the typed client but the same path on the wire.
            (queryInt(fc.constant(0).map(() => skillId)) as fc.Arbitrary<number>)
          : fc.constant('');
    // Bodies are closed: an unknown field is refused by name, by the client and by the mock alike.
    const extras = fc.dictionary(
      fc.constantFrom(...UNKNOWN_FIELDS),
      fc.oneof(
        { weight: 9, arbitrary: fc.jsonValue({ maxDepth: 1 }) },
        { weight: 1, arbitrary: fc.constant(10n) },
      ),
      { maxKeys: 2 },
    );
    const required = endpoint.required ?? [];
    const bodies = fc
      .tuple(
        fc.record(endpoint.fields, { requiredKeys: required }),
        endpoint.query ? fc.constant({}) : extras,
        fc.oneof(
          { weight: 9, arbitrary: fc.constant(undefined) },
          { weight: 1, arbitrary: fc.constantFrom(...required, '-') },
        ),
      )
      .map(([body, extra, drop]) => {
        const out: Body = { ...extra, ...body };
        if (drop !== undefined) delete out[drop];
        return out;
      });

    itFuzzes(
      `${endpoint.name}: refused before sending with the field named, or accepted by the mock`,
      `requests ${endpoint.name}`,
      6,
      fc.asyncProperty(bodies, params, async (body, param) => {
        const client = target.client({ maxRetries: 0 });
        const sentBefore = target.requests.length;
        let outcome: unknown;
        try {
          outcome = await endpoint.call(client, body, param);
        } catch (error) {
          outcome = error;
        }
        const sent = target.requests.length > sentBefore;
        // Never a crash: a result, or one of the SDK's errors.
        if (outcome instanceof Error) expect(outcome, String(outcome)).toBeInstanceOf(ConvoError);

        if (outcome instanceof ValidationError) {
          expect(sent, 'a ValidationError is thrown before anything is sent').toBe(false);
          const head = outcome.field.split('.')[0] ?? '';
          expect([...Object.keys(endpoint.fields), endpoint.param, '(body)', ...UNKNOWN_FIELDS]).toContain(
            head,
          );
          // The service refuses it too: the client is not stricter than the contract.
          const reply = await rawReply(target, endpoint.raw(body, param));
          expect([400, 404, 409, 422], `mock accepted what the client refused: ${outcome.message}`).toContain(
            reply.status,
          );
          return;
        }
        expect(sent).toBe(true);
        if (outcome instanceof ApiError && (outcome.status === 400 || outcome.status === 422)) {
          // The client let through what the service refuses as invalid input.
          expect(serviceOnly(outcome), `${outcome.message} ${JSON.stringify(outcome.data)}`).toBe(true);
        }
      }),
    );
  }
});
