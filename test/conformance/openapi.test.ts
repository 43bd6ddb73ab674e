import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Validator } from '@cfworker/json-schema';
import { createParser } from 'eventsource-parser';
import { beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../../scripts/openapi.js';
import { ENDPOINT_NAMES, ENDPOINTS } from '../../src/contract/endpoints.js';
import { routePath } from '../../src/mock/http/route-paths.js';
import { createMock } from '../../src/mock/index.js';

// dist/openapi.json (`convo-sdk/openapi.json`) against what it describes: the contract's zod schemas it is
// built from, every route the mock serves, and the mock's real answers validated against its schemas.
const root = join(import.meta.dirname, '..', '..');
type Json = Record<string, unknown>;
let doc: Json & { paths: Record<string, Record<string, Json>> };

beforeAll(() => {
  execFileSync(process.execPath, [join(root, 'scripts', 'dist.mjs'), 'check'], { stdio: 'pipe' });
  doc = JSON.parse(readFileSync(join(root, 'dist', 'openapi.json'), 'utf8'));
});

/** `{ $ref: '#/components/schemas/X' }` replaced by X, all the way down (the schemas have no cycles). */
function deref(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(deref);
  if (typeof node !== 'object' || node === null) return node;
  const ref = (node as { $ref?: string }).$ref;
  if (ref) return deref((doc.components as { schemas: Json }).schemas[ref.split('/').at(-1)!]);
  return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, deref(value)]));
}

/** The document's path template matching a concrete path. */
function templateOf(path: string): string | undefined {
  return Object.keys(doc.paths).find((template) =>
    new RegExp(`^${template.replace(/\{[a-z_]+\}/g, '[^/]+')}$`).test(path),
  );
}

/** The mock's routes, each as `METHOD /api/v1/...{param}`: service.ts serves one per endpoint of the table. */
function mockRoutes(): string[] {
  return ENDPOINT_NAMES.map((name) => {
    const path = routePath(name)
      .replace(/\{[^}]*\}/g, '')
      .replace(/:([a-z_]+)/g, '{$1}');
    return `${ENDPOINTS[name].method} ${path}`;
  });
}

describe('openapi.json', () => {
  it('is what the contract builds now: OpenAPI 3.1, generated from the zod schemas', () => {
    const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    expect(doc).toEqual(openApiDocument(version));
    expect(doc.openapi).toBe('3.1.0');
  });

  it('4: lists every route the mock serves, and nothing the mock does not serve', () => {
    const served = mockRoutes().sort();
    const documented = Object.entries(doc.paths)
      .flatMap(([path, ops]) => Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`))
      .sort();
    expect(served.length).toBeGreaterThanOrEqual(20);
    expect(documented).toEqual(served);
  });

  it('5, 7: every operation names its scope, the 401, its section-7 codes; turn sends require Idempotency-Key', () => {
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const responses = op.responses as Record<string, Json>;
        expect(Object.keys(responses), `${method} ${path}`).toContain('401');
        if (path !== '/api/v1/users')
          expect(op.security, `${method} ${path}`).toEqual([{ bearer: [expect.any(String)] }]);
      }
    }
    const send = doc.paths['/api/v1/chats/{chat_id}/messages']!.post!;
    expect(send.parameters).toContainEqual(
      expect.objectContaining({ name: 'Idempotency-Key', in: 'header', required: true }),
    );
    const conflicts = (send.responses as Json)['409'] as Json;
    expect(JSON.stringify(conflicts)).toContain('api_v1_idempotency_conflict');
    const stream = doc.paths['/api/v1/chats/{chat_id}/messages/stream']!.post!;
    expect(Object.keys(((stream.responses as Json)['200'] as { content: Json }).content)).toEqual([
      'text/event-stream',
    ]);
  });

  it('4.2: creating a chat documents both 200 and 201 (the contract does not say which); a skill 201 only', () => {
    const chat = doc.paths['/api/v1/chats']!.post!.responses as Record<string, Json>;
    expect(Object.keys(chat).filter((status) => status.startsWith('2'))).toEqual(['200', '201']);
    expect(chat['200']).toEqual(chat['201']);
    const skill = doc.paths['/api/v1/skills']!.post!.responses as Record<string, Json>;
    expect(Object.keys(skill).filter((status) => status.startsWith('2'))).toEqual(['201']);
  });
});

describe('the mock’s real answers match openapi.json', () => {
  const mock = createMock();
  const checked: string[] = [];

  /** Validates one answer against the schema the document gives for its operation and status. */
  async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const response = await mock.fetch(path, {
      method,
      headers: { authorization: 'Bearer mock-token', 'content-type': 'application/json', ...headers },
      body: body === undefined ? null : JSON.stringify(body),
    });
    const template = templateOf(path.split('?')[0]!);
    const op = template ? doc.paths[template]?.[method.toLowerCase()] : undefined;
    expect(op, `${method} ${path} documented`).toBeDefined();
    const documented = (op!.responses as Record<string, { content: Json }>)[String(response.status)];
    expect(documented, `${method} ${path}: status ${response.status} documented`).toBeDefined();
    const stream = response.headers.get('content-type')?.startsWith('text/event-stream');
    const schema = deref(
      (documented!.content[stream ? 'text/event-stream' : 'application/json'] as Json).schema,
    );
    const validator = new Validator(schema as never, '2020-12', false);
    const items: unknown[] = [];
    if (stream) {
      const parser = createParser({
        onEvent: (e) => items.push({ event: e.event, data: JSON.parse(e.data) }),
      });
      parser.feed(await response.text());
    } else {
      items.push(await response.json());
    }
    for (const item of items) {
      const result = validator.validate(item);
      expect(
        result.errors.slice(0, 3),
        `${method} ${path} ${response.status}: ${JSON.stringify(item)}`,
      ).toEqual([]);
    }
    checked.push(`${method} ${template} ${response.status}`);
    return items;
  }

  it('2.1, 4, 6, 7: skills, chats, turns (sync and streamed), catalog, interactions and errors validate', async () => {
    const [created] = (await call('POST', '/api/v1/skills', { name: 'OpenAPI', instructions: 'x' })) as [
      { data: { id: number } },
    ];
    const skill = `/api/v1/skills/${created.data.id}`;
    await call('GET', '/api/v1/skills');
    await call('GET', skill);
    await call('PATCH', skill, { name: 'OpenAPI 2' });
    await call('PATCH', `${skill}/toggle`);
    await call('DELETE', skill);
    await call('GET', skill);
    await call('GET', '/api/v1/users');
    const [chat] = (await call('POST', '/api/v1/chats', { name: 'OpenAPI' })) as [{ data: { id: string } }];
    const one = `/api/v1/chats/${chat.data.id}`;
    await call('GET', '/api/v1/chats?is_favorite=false');
    await call('GET', one);
    await call('PATCH', one, { is_favorite: true });
    await call(
      'POST',
      `${one}/messages`,
      { content: 'hi', permission_mode: 'auto' },
      { 'idempotency-key': 'k1' },
    );
    await call(
      'POST',
      `${one}/messages`,
      { content: 'changed', permission_mode: 'auto' },
      { 'idempotency-key': 'k1' },
    );
    await call('POST', `${one}/messages`, { content: 'hi', permission_mode: 'auto' });
    // A turn that asks would hold its stream open until answered: the plain turn's events are validated.
    const events = (await call(
      'POST',
      `${one}/messages/stream`,
      { content: 'hello' },
      { 'idempotency-key': 'k2', accept: 'text/event-stream' },
    )) as Array<{ event: string }>;
    expect(events.map((e) => e.event)).toEqual(
      expect.arrayContaining(['message.start', 'message.delta', 'message.completed']),
    );
    await call('GET', `${one}/messages`);
    await call('GET', '/api/v1/chat/catalog');
    await call('POST', `${one}/actions/approve-tool`, {
      action_id: 'gone',
      decisions: [{ tool_use_id: 't', approved: true }],
    });
    await call('POST', `${one}/actions/cancel`, {});
    await call('POST', `/api/v1/chats/${crypto.randomUUID()}/actions/cancel`, {});
    await call('DELETE', one);
    expect(checked.length).toBeGreaterThanOrEqual(22);
  });

  it('2.1: the schemas refuse what the client refuses: a list without meta.total, a skill without an id', () => {
    const list = (doc.paths['/api/v1/skills']!.get!.responses as Record<string, { content: Json }>)['200']!;
    const validator = new Validator(
      deref((list.content['application/json'] as Json).schema) as never,
      '2020-12',
      false,
    );
    const answer = { status: 'success', message: 'OK', message_code: 'api_v1_ok', data: [] };
    expect(
      validator.validate({ ...answer, meta: { request_id: 'r', page: 1, size: 50, total: 0 } }).valid,
    ).toBe(true);
    expect(validator.validate({ ...answer, meta: { request_id: 'r', page: 1, size: 50 } }).valid).toBe(false);
    expect(
      validator.validate({
        ...answer,
        data: [{ name: 'no id' }],
        meta: { request_id: 'r', page: 1, size: 50, total: 1 },
      }).valid,
    ).toBe(false);
  });
});
