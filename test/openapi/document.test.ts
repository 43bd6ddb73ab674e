import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Validator } from '@cfworker/json-schema';
import { beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../../scripts/openapi.js';
import { KNOWN_CODES, MOCK_CODES } from '../../src/contract/codes.js';
import { ENDPOINT_DOCS } from '../../src/contract/endpoint-docs.js';
import { ENDPOINT_NAMES, ENDPOINTS } from '../../src/contract/endpoints.js';
import { checkAgainst } from '../../src/contract/issues.js';
import { ATTACHMENT_SCOPES } from '../../src/contract/turn.js';
import { deref, openApi } from '../support/openapi-answers.js';

// dist/openapi.json (`convo-sdk/openapi.json`) read against the spec, point by point: what issue 30 found
// wrong in it, each asserted where the document says it.
const root = join(import.meta.dirname, '..', '..');
type Json = Record<string, unknown>;
const doc = openApi();
const components = doc.components as { schemas: Record<string, Json>; requestBodies: Record<string, Json> };
const bodySchema = (body: Json) => ((body.content as Json)['application/json'] as Json).schema as Json;
/** The named schemas, and each request body's schema by the body's name. */
const schemas: Record<string, Json> = {
  ...components.schemas,
  ...Object.fromEntries(
    Object.entries(components.requestBodies).map(([name, body]) => [name, bodySchema(body)]),
  ),
};
/** An operation's request body, its reference resolved. */
const requestBodyOf = (path: string, method: string) => {
  const { $ref } = op(path, method).requestBody as { $ref: string };
  return components.requestBodies[$ref.split('/').at(-1)!]!;
};
const op = (path: string, method: string) =>
  doc.paths[`/api/v1/${path}`]![method] as Json & { responses: Record<string, Json> };
const validator = (schema: unknown) => new Validator(deref(schema) as never, '2020-12', false);
const errorSchema = (path: string, method: string, status: number) =>
  ((op(path, method).responses[String(status)]!.content as Json)['application/json'] as Json).schema;
const failure = (code: string, data: unknown = null) => ({
  status: 'error',
  message: code,
  message_code: code,
  data,
});
const codesAt = (path: string, method: string, status: number) =>
  [...JSON.stringify(errorSchema(path, method, status)).matchAll(/"const":"([a-z_0-9]+)"/g)].map(
    ([, c]) => c,
  );

describe('openapi.json', () => {
  beforeAll(() => {
    execFileSync(process.execPath, [join(root, 'scripts', 'dist.mjs'), 'check'], { stdio: 'pipe' });
  });

  it('is what the contract builds now: OpenAPI 3.1, generated from the endpoint table', () => {
    const built = JSON.parse(readFileSync(join(root, 'dist', 'openapi.json'), 'utf8'));
    const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    expect(built).toEqual(openApiDocument(version));
    expect(built.openapi).toBe('3.1.0');
  });
});

describe('the document, point by point', () => {
  it('4: every endpoint of the table at its path and method, and nothing else', () => {
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const table = ENDPOINT_NAMES.map((name) => `${ENDPOINTS[name].method} /api/v1/${ENDPOINTS[name].path}`);
    expect(documented.sort()).toEqual(table.sort());
    expect(documented).toHaveLength(ENDPOINT_NAMES.length);
  });

  it('4.1: GET /users is marked as outside the contract', () => {
    const users = op('users', 'get');
    expect(users['x-outside-contract']).toBe(true);
    expect(users.description).toMatch(/^\*\*Not part of the contract\.\*\*/);
    const others = ENDPOINT_NAMES.filter((name) => name !== 'users.list');
    for (const name of others) {
      const { path, method } = ENDPOINTS[name];
      expect(op(path, method.toLowerCase())['x-outside-contract'], name).toBeUndefined();
    }
  });

  it('5: every operation names its scopes; each attachment list its own scope', () => {
    for (const name of ENDPOINT_NAMES) {
      const { path, method, scopes } = ENDPOINTS[name];
      expect(op(path, method.toLowerCase()).security, name).toEqual([{ bearer: [...scopes] }]);
    }
    const attachments = schemas.Attachments!.properties as Record<string, Json>;
    for (const [list, scope] of Object.entries(ATTACHMENT_SCOPES))
      expect(attachments[list]!['x-scope'], list).toBe(scope);
    expect(JSON.stringify(schemas.TurnsSendBody)).toContain('#/components/schemas/Attachments');
    expect(JSON.stringify(schemas.TurnsStreamBody)).toContain('#/components/schemas/Attachments');
  });

  it('5, 7: the 401 is the mock’s reading, not cited as contract; mock codes are never the contract’s', () => {
    expect(String(op('skills', 'get').responses['401']!.description)).toMatch(
      /api_v1_unauthorized.*\(5, the reference mock’s reading\)/,
    );
    for (const [name, endpointDoc] of Object.entries(ENDPOINT_DOCS))
      for (const failure of endpointDoc.failures) {
        if ((MOCK_CODES as readonly string[]).includes(failure.code))
          expect(failure.source, name).toBe('mock');
        else expect(KNOWN_CODES, name).toContain(failure.code);
      }
  });

  it('7.1: both sends list 404 api_v1_not_found (another credential’s chat)', () => {
    expect(codesAt('chats/{chat_id}/messages', 'post', 404)).toEqual(['api_v1_not_found']);
    expect(codesAt('chats/{chat_id}/messages/stream', 'post', 404)).toEqual(['api_v1_not_found']);
  });

  it('7.2: skill update lists no create-only code; create lists both 403s', () => {
    expect(codesAt('skills/{skill_id}', 'patch', 403)).not.toContain('api_v1_resource_policy_create_denied');
    expect(codesAt('skills', 'post', 403)).toEqual(
      expect.arrayContaining(['api_v1_resource_policy_create_denied', 'api_v1_resource_not_allowed']),
    );
  });

  it('7.3: the sync send’s 502 is open to the model’s code, with chat_id and message_id', () => {
    const check = validator(errorSchema('chats/{chat_id}/messages', 'post', 502));
    const ids = { chat_id: crypto.randomUUID(), message_id: 1 };
    expect(check.validate(failure('upstream_error', ids)).valid).toBe(true);
    expect(check.validate(failure('model_context_exceeded', ids)).valid).toBe(true);
    expect(check.validate(failure('model_context_exceeded', { chat_id: 'x' })).valid).toBe(false);
  });

  it('4.3, 7.3: the sync body requires permission_mode auto, the 409 stated', () => {
    const send = validator(schemas.TurnsSendBody);
    expect(send.validate({ content: 'hi', permission_mode: 'auto' }).valid).toBe(true);
    expect(send.validate({ content: 'hi' }).valid).toBe(false);
    expect(send.validate({ content: 'hi', permission_mode: 'manual' }).valid).toBe(false);
    expect(JSON.stringify(schemas.TurnsSendBody)).toContain('409 api_v1_sync_requires_auto');
    expect(codesAt('chats/{chat_id}/messages', 'post', 409)).toContain('api_v1_sync_requires_auto');
  });

  it('7.4: the stream send lists 409 api_v1_turn_in_progress and its 422s', () => {
    const stream = 'chats/{chat_id}/messages/stream';
    expect(codesAt(stream, 'post', 409).sort()).toEqual([
      'api_v1_chat_busy',
      'api_v1_idempotency_conflict',
      'api_v1_turn_in_progress',
    ]);
    expect(codesAt(stream, 'post', 422).sort()).toEqual([
      'api_v1_content_too_long',
      'api_v1_too_many_attachments',
      'api_v1_validation_error',
    ]);
  });

  it('4.6, 7.6: the cancel’s 404 lists api_v1_action_not_found beside api_v1_not_found', () => {
    expect(codesAt('chats/{chat_id}/actions/cancel', 'post', 404).sort()).toEqual([
      'api_v1_action_not_found',
      'api_v1_not_found',
    ]);
  });

  it('5, 7: each code’s data shape: required_scopes, message_id, data.code, upstream_status', () => {
    const scope = validator(errorSchema('skills', 'get', 403));
    expect(
      scope.validate(failure('api_token_scope_not_allowed', { required_scopes: ['skills:read'] })).valid,
    ).toBe(true);
    expect(scope.validate(failure('api_token_scope_not_allowed', {})).valid).toBe(false);
    const conflict = validator(errorSchema('chats/{chat_id}/messages', 'post', 409));
    expect(conflict.validate(failure('api_v1_chat_busy', { message_id: 4 })).valid).toBe(true);
    expect(conflict.validate(failure('api_v1_chat_busy', { message_id: 'x' })).valid).toBe(false);
    expect(
      conflict.validate(failure('api_v1_core_unavailable', { code: 'idempotency_outcome_unknown' })).valid,
    ).toBe(true);
    expect(conflict.validate(failure('api_v1_core_unavailable', { code: 'persistence_failed' })).valid).toBe(
      false,
    );
    const answer = validator(errorSchema('chats/{chat_id}/actions/approve-tool', 'post', 409));
    expect(answer.validate(failure('api_v1_action_result_unknown', { upstream_status: 'x' })).valid).toBe(
      false,
    );
  });

  it('2.6, 6: message.action_required requires payload, shaped for each known kind, open to new kinds', () => {
    const event = schemas.ActionRequiredEvent!;
    expect(event.required).toEqual(expect.arrayContaining(['kind', 'action_id', 'payload']));
    expect(JSON.stringify(event)).not.toContain('anyOf');
    const check = validator(event);
    const tools = { tools: [{ tool_use_id: 't', name: 'n', server: 's', input: {} }] };
    expect(check.validate({ kind: 'tool_approval', action_id: 'a', payload: tools }).valid).toBe(true);
    expect(check.validate({ kind: 'tool_approval', action_id: 'a' }).valid).toBe(false);
    expect(check.validate({ kind: 'tool_approval', action_id: 'a', payload: { plan: {} } }).valid).toBe(
      false,
    );
    expect(check.validate({ kind: 'auth_required', action_id: 'a', payload: {} }).valid).toBe(false);
    const auth = {
      kind: 'auth_required',
      action_id: 'a',
      payload: {},
      resolution: 'connect_in_ui_or_cancel',
    };
    expect(check.validate(auth).valid).toBe(true);
    expect(check.validate({ kind: 'future_kind', action_id: 'a', payload: { x: 1 } }).valid).toBe(true);
    expect((event.properties as Record<string, Json>).kind!.examples).toEqual([
      'tool_approval',
      'plan_approval',
      'elicitation',
      'auth_required',
    ]);
  });

  it('4.5: respond-elicitation needs content with accept, and content flat', () => {
    const check = validator(schemas.ActionsRespondElicitationBody);
    expect(check.validate({ action_id: 'a', action: 'accept', content: { email: 'x', n: 1 } }).valid).toBe(
      true,
    );
    expect(check.validate({ action_id: 'a', action: 'accept' }).valid).toBe(false);
    expect(check.validate({ action_id: 'a', action: 'accept', content: { deep: { x: 1 } } }).valid).toBe(
      false,
    );
    expect(check.validate({ action_id: 'a', action: 'decline' }).valid).toBe(true);
  });

  it('2.1, 2.3, 4.2, 6: ids and request_id are uuids', () => {
    const props = (name: string) => schemas[name]!.properties as Record<string, Json>;
    expect(props('Chat').id!.format).toBe('uuid');
    expect(props('Turn').chat_id!.format).toBe('uuid');
    expect(props('Meta').request_id!.format).toBe('uuid');
    expect(props('ListMeta').request_id!.format).toBe('uuid');
    expect(props('StartEvent').request_id!.format).toBe('uuid');
    const chatId = (op('chats/{chat_id}', 'get').parameters as Json[])[0]!;
    expect(chatId).toMatchObject({ name: 'chat_id', in: 'path', schema: { type: 'string', format: 'uuid' } });
  });

  it('2.2, 4.2, 4.4, 8: request defaults and the bounds of a page', () => {
    const props = (name: string) => schemas[name]!.properties as Record<string, Json>;
    expect(props('SkillsCreateBody').level!.default).toBe('personal');
    expect(props('SkillsCreateBody').visibility!.default).toBe('public');
    expect(props('ChatsCreateBody').permission_mode!.default).toBe('manual');
    expect(props('TurnsStreamBody').permission_mode!.default).toBe('manual');
    const query = op('skills', 'get').parameters as Json[];
    expect(query).toEqual([
      expect.objectContaining({ name: 'page', schema: expect.objectContaining({ minimum: 1, default: 1 }) }),
      expect.objectContaining({
        name: 'size',
        schema: expect.objectContaining({ minimum: 1, maximum: 200, default: 50 }),
      }),
    ]);
    expect(props('ListMeta')).toMatchObject({
      page: { minimum: 1 },
      size: { minimum: 1, maximum: 200 },
      total: { minimum: 0 },
    });
  });

  it('4.4, 4.5, 6: the stream’s description tells Accept, pings, replace, which interactions come in any mode and re-delivery by key', () => {
    const stream = op('chats/{chat_id}/messages/stream', 'post').responses['200']!;
    expect(Object.keys(stream.content as Json)).toEqual(['text/event-stream']);
    for (const needle of [
      '`Accept: text/event-stream`',
      '`ping`',
      '`replace: true`',
      '`permission_mode: manual`',
      '`auth_required`, which may appear in any mode',
      '`plan_approval`, which may appear in any mode',
      'same key again re-delivers',
    ])
      expect(stream.description).toContain(needle);
  });

  it('2.6: a plan requires title, context, steps and notes', () => {
    const plan = (schemas.PlanApprovalPayload!.properties as Record<string, Json>).plan!;
    expect(plan.required).toEqual(expect.arrayContaining(['title', 'context', 'steps', 'notes']));
    const check = validator(schemas.PlanApprovalPayload);
    const full = { title: 't', context: 'c', steps: [{ step: 1, action: 'a' }], notes: '' };
    expect(check.validate({ plan: full }).valid).toBe(true);
    const { context: _, ...noContext } = full;
    expect(check.validate({ plan: noContext }).valid).toBe(false);
    const { notes: __, ...noNotes } = full;
    expect(check.validate({ plan: noNotes }).valid).toBe(false);
  });

  it('4.1: GET /users guesses no shape (not shown), and its example is the mock’s answer', () => {
    const answer = (op('users', 'get').responses['200']!.content as Json)['application/json'] as Json;
    expect(JSON.stringify(answer.schema)).not.toMatch(/properties|\$ref|"type"/);
    expect(String((answer.schema as Json).description)).toMatch(/not shown \(4\.1\)/);
    expect(answer.example).toMatchObject({ data: [{ id: 1 }, { id: 2 }, { id: 3 }] });
  });

  it('4.6: the cancel’s chat_id is a uuid', () => {
    expect((schemas.CancelResult!.properties as Record<string, Json>).chat_id!.format).toBe('uuid');
  });

  it('7.3: the 503’s data.code is a closed set; the 409’s is idempotency_outcome_unknown', () => {
    const check = validator(errorSchema('chats/{chat_id}/messages', 'post', 503));
    const unavailable = (code: string) => failure('api_v1_core_unavailable', { code });
    expect(check.validate(unavailable('persistence_failed')).valid).toBe(true);
    expect(check.validate(unavailable('outcome_unknown')).valid).toBe(true);
    expect(check.validate(unavailable('idempotency_outcome_unknown')).valid).toBe(false);
    expect(check.validate(unavailable('anything')).valid).toBe(false);
    const unavailableData = JSON.stringify(errorSchema('chats/{chat_id}/messages', 'post', 503));
    expect(unavailableData).toContain('"enum":["persistence_failed","outcome_unknown"]');
  });

  it('7.5: api_v1_action_result_unknown names data.upstream_status at 409 only; the 503 requires no data', () => {
    const at503 = validator(errorSchema('chats/{chat_id}/actions/respond-plan', 'post', 503));
    const { data: _, ...bare } = failure('api_v1_action_result_unknown');
    expect(at503.validate(bare).valid).toBe(true);
    expect(at503.validate(failure('api_v1_action_result_unknown')).valid).toBe(true);
    const at409 = validator(errorSchema('chats/{chat_id}/actions/respond-plan', 'post', 409));
    expect(at409.validate(failure('api_v1_action_result_unknown', { upstream_status: 422 })).valid).toBe(
      true,
    );
    expect(at409.validate(failure('api_v1_action_result_unknown', { upstream_status: 'x' })).valid).toBe(
      false,
    );
  });

  it('8: every integer is bounded by 2^53-1, which the client and the mock refuse above', () => {
    const unbounded: string[] = [];
    const walk = (node: unknown, at: string) => {
      if (typeof node !== 'object' || node === null) return;
      const schema = node as Json;
      if (schema.type === 'integer' && !(typeof schema.maximum === 'number' && schema.maximum <= 2 ** 53 - 1))
        unbounded.push(at);
      for (const [key, value] of Object.entries(schema))
        if (key !== 'example' && key !== 'examples') walk(value, `${at}/${key}`);
    };
    walk(doc, '#');
    expect(unbounded).toEqual([]);
    expect((op('skills/{skill_id}', 'get').parameters as Json[])[0]!.schema).toMatchObject({
      type: 'integer',
      maximum: Number.MAX_SAFE_INTEGER,
    });
  });

  it('4.2, 4.3: model_id comes from the catalog; a list ignores a query parameter it does not name', () => {
    for (const body of ['ChatsCreateBody', 'TurnsSendBody', 'TurnsStreamBody'])
      expect((schemas[body]!.properties as Record<string, Json>).model_id!.description, body).toMatch(
        /from the catalog \(GET \/api\/v1\/chat\/catalog/,
      );
    for (const name of ENDPOINT_NAMES) {
      const { path, method } = ENDPOINTS[name];
      const described = String(op(path, method.toLowerCase()).description);
      if ('list' in ENDPOINTS[name])
        expect(described, name).toMatch(/query parameter it does not name is ignored/);
      else expect(described, name).not.toMatch(/query parameter/);
    }
  });

  it('a concrete default server: the mock’s default address, no template to fill in', () => {
    const [first] = doc.servers as Array<{ url: string; variables?: unknown }>;
    expect(first).toMatchObject({ url: 'http://127.0.0.1:4010' });
    expect(first!.variables).toBeUndefined();
  });

  it('every const and enum carries its type', () => {
    const untyped: string[] = [];
    const walk = (node: unknown, at: string) => {
      if (typeof node !== 'object' || node === null) return;
      const schema = node as Json;
      if (('const' in schema || 'enum' in schema) && schema.type === undefined) untyped.push(at);
      for (const [key, value] of Object.entries(schema))
        if (key !== 'example' && key !== 'examples' && key !== 'default') walk(value, `${at}/${key}`);
    };
    walk(doc, '#');
    expect(untyped).toEqual([]);
  });

  it('every answer has an example that fits its schema; a success’s data is one the client accepts', () => {
    for (const name of ENDPOINT_NAMES) {
      const endpoint = ENDPOINTS[name];
      const responses = op(endpoint.path, endpoint.method.toLowerCase()).responses;
      for (const [status, response] of Object.entries(responses)) {
        const [[, media]] = Object.entries(response.content as Record<string, Json>) as [[string, Json]];
        expect(media.example, `${name} ${status}`).toBeDefined();
        expect(validator(media.schema).validate(media.example).errors, `${name} ${status}`).toEqual([]);
        if (status.startsWith('2') && !('stream' in endpoint) && !('outsideContract' in endpoint)) {
          const data = (media.example as { data: unknown }).data;
          expect(checkAgainst(endpoint.data as never, data).ok, name).toBe(true);
        }
      }
    }
  });

  it('every body example is one the client and the document both accept', () => {
    for (const name of ENDPOINT_NAMES) {
      const example = (ENDPOINT_DOCS[name] as { example?: unknown }).example;
      const endpoint = ENDPOINTS[name] as { body?: Parameters<typeof checkAgainst>[0] };
      if (!endpoint.body) continue;
      expect(example, name).toBeDefined();
      expect(checkAgainst(endpoint.body, example).ok, name).toBe(true);
      const schema = bodySchema(requestBodyOf(ENDPOINTS[name].path, ENDPOINTS[name].method.toLowerCase()));
      expect(validator(schema).validate(example).errors, name).toEqual([]);
    }
  });

  it('4.2, 4.6: a body whose fields are all optional may be left out; one with a required field may not', () => {
    const required = (path: string, method: string) => requestBodyOf(path, method).required;
    expect(required('chats/{chat_id}/actions/cancel', 'post')).toBe(false);
    expect(required('chats', 'post')).toBe(false);
    expect(required('chats/{chat_id}/messages', 'post')).toBe(true);
    expect(required('chats/{chat_id}/actions/respond-elicitation', 'post')).toBe(true);
  });

  it('4.2: creating a chat documents both 200 and 201 (the contract does not say which); a skill 201 only', () => {
    const chat = op('chats', 'post').responses;
    expect(Object.keys(chat).filter((status) => status.startsWith('2'))).toEqual(['200', '201']);
    expect(chat['200']).toEqual(chat['201']);
    const skill = op('skills', 'post').responses;
    expect(Object.keys(skill).filter((status) => status.startsWith('2'))).toEqual(['201']);
  });

  it('2.1: the list schema refuses what the client refuses: no meta.total, a skill without an id', () => {
    const list = ((op('skills', 'get').responses['200']!.content as Json)['application/json'] as Json).schema;
    const check = validator(list);
    const answer = { status: 'success', message: 'OK', message_code: 'api_v1_ok', data: [] };
    const meta = { request_id: crypto.randomUUID(), page: 1, size: 50, total: 0 };
    expect(check.validate({ ...answer, meta }).valid).toBe(true);
    const { total: _, ...noTotal } = meta;
    expect(check.validate({ ...answer, meta: noTotal }).valid).toBe(false);
    expect(check.validate({ ...answer, data: [{ name: 'no id' }], meta: { ...meta, total: 1 } }).valid).toBe(
      false,
    );
  });
});
