import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ApiError,
  AuthenticationError,
  BadRequestError,
  Client,
  ConflictError,
  ConnectionError,
  ConvoError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  UnprocessableEntityError,
  ValidationError,
} from '../../src/index.js';
import { createMock } from '../../src/mock/index.js';
import { fail, fakeFetch, ok, skill } from '../support/fake-fetch.js';
import { type Loopback, loopback, sendOk } from '../support/loopback.js';

const CHAT = '3f2b1c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';
const servers: Loopback[] = [];
afterEach(async () => {
  vi.unstubAllGlobals();
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const client = (
  fetch: ReturnType<typeof fakeFetch>['fetch'],
  options: ConstructorParameters<typeof Client>[0] = {},
) =>
  new Client({ baseUrl: 'https://api.test', token: 't', fetch, retryDelay: { min: 1, max: 2 }, ...options });

describe('7 ApiError subclasses by status', () => {
  const cases: [number, string, abstract new (...args: never[]) => ApiError][] = [
    [400, 'api_v1_idempotency_key_required', BadRequestError],
    [401, 'api_v1_unauthorized', AuthenticationError],
    [403, 'api_token_scope_not_allowed', PermissionDeniedError],
    [404, 'api_v1_not_found', NotFoundError],
    [409, 'api_v1_chat_busy', ConflictError],
    [422, 'api_v1_validation_error', UnprocessableEntityError],
    [429, 'api_v1_rate_limited', RateLimitError],
    [500, 'api_v1_internal_error', InternalServerError],
    [502, 'api_v1_core_unavailable', InternalServerError],
  ];
  for (const [status, code, Class] of cases) {
    it(`7 a ${status} is a ${Class.name}, an ApiError whose is(code) still narrows`, async () => {
      // With the data the contract gives each code that has one (5, 7.3).
      const data =
        code === 'api_token_scope_not_allowed'
          ? { required_scopes: ['skills:read'] }
          : code === 'api_v1_chat_busy'
            ? { message_id: 1 }
            : null;
      const { fetch } = fakeFetch(fail(status, code, data));
      const error = await client(fetch, { maxRetries: 0 })
        .skills.get(1)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(Class);
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({ status, code, name: Class.name });
      expect((error as ApiError).is(code as never)).toBe(true);
    });
  }

  it('7 a 422 is no other status class, and a 418 stays a plain ApiError', async () => {
    const { fetch } = fakeFetch(fail(422, 'api_v1_validation_error'), fail(418, 'teapot'));
    const c = client(fetch);
    const error = await c.skills.get(1).catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(InternalServerError);
    expect(error).not.toBeInstanceOf(ConflictError);
    expect(error).not.toBeInstanceOf(BadRequestError);
    const other = await c.skills.get(1).catch((e: unknown) => e);
    expect(Object.getPrototypeOf(other)).toBe(ApiError.prototype);
  });

  it("7 error.headers are the error response's headers, never the request's", async () => {
    const { fetch } = fakeFetch(
      new Response(JSON.stringify({ message_code: 'api_v1_rate_limited' }), {
        status: 429,
        headers: { 'retry-after': '1', 'x-ratelimit-remaining': '0' },
      }),
    );
    const error = (await client(fetch, { maxRetries: 0, headers: { 'x-app': 'mine' } })
      .skills.get(1)
      .catch((e: unknown) => e)) as ApiError;
    expect(error.headers).toBeInstanceOf(Headers);
    expect(error.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(error.headers.get('retry-after')).toBe('1');
    expect([error.headers.get('authorization'), error.headers.get('x-app')]).toEqual([null, null]);
  });

  it('7 a 429 with an empty body keeps its Retry-After', async () => {
    const { fetch } = fakeFetch(new Response(null, { status: 429, headers: { 'retry-after': '2' } }));
    const error = await client(fetch, { maxRetries: 0 })
      .skills.get(1)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ retryAfterMs: 2_000 });
  });
});

/** A loopback service that answers 401 unless the bearer token is `valid`, recording each request body. */
async function tokenServer(valid: string) {
  const bodies: string[] = [];
  const server = await loopback((request, response) => {
    let text = '';
    request.on('data', (chunk) => {
      text += chunk;
    });
    request.on('end', () => {
      bodies.push(text);
      if (request.headers.authorization !== `Bearer ${valid}`) {
        response.writeHead(401, { 'content-type': 'application/json' });
        return response.end(
          JSON.stringify({ status: 'error', message_code: 'api_v1_unauthorized', message: 'expired' }),
        );
      }
      sendOk(response, skill());
    });
  });
  servers.push(server);
  return { server, bodies };
}

describe('hooks', () => {
  it('5 beforeRequest adds a tracing header to every request, the stream included (client and per request)', async () => {
    const { fetch, requests } = fakeFetch(ok(skill()));
    const c = client(fetch, {
      hooks: { beforeRequest: [({ request }) => void request.headers.set('x-trace', 'client')] },
    });
    await c.skills.get(1);
    await c.skills.get(1, {
      hooks: { beforeRequest: [({ request }) => void request.headers.set('x-span', 'call')] },
    });
    expect(requests.map((r) => [r.headers.get('x-trace'), r.headers.get('x-span')])).toEqual([
      ['client', null],
      ['client', 'call'],
    ]);
  });

  it('5 afterResponse refreshes a token on 401 and re-sends the request, body included, over real HTTP', async () => {
    const { server, bodies } = await tokenServer('new');
    let token = 'old';
    const c = new Client({
      baseUrl: server.url,
      token,
      hooks: {
        beforeRequest: [({ request }) => void request.headers.set('authorization', `Bearer ${token}`)],
        afterResponse: [
          async ({ request, response, retryCount }) => {
            if (response.status !== 401 || retryCount > 0) return;
            token = 'new';
            request.headers.set('authorization', `Bearer ${token}`);
            return fetch(request);
          },
        ],
      },
    });
    await expect(c.skills.create({ name: 'n', instructions: 'i' })).resolves.toMatchObject({ id: 1 });
    expect(server.requests.map((r) => r.headers.authorization)).toEqual(['Bearer old', 'Bearer new']);
    expect(bodies[1]).toBe(bodies[0]);
    expect(JSON.parse(bodies[1] ?? '')).toEqual({ name: 'n', instructions: 'i' });
  });

  it('5 a beforeRequest hook may hand over another Request: that one goes out, its body included', async () => {
    const { fetch, requests } = fakeFetch(ok(skill()));
    const c = client(fetch, {
      hooks: {
        beforeRequest: [
          ({ request }) =>
            new Request(request, { body: JSON.stringify({ name: 'from the hook', instructions: 'i' }) }),
        ],
      },
    });
    await c.skills.create({ name: 'n', instructions: 'i' });
    expect(requests.map((r) => [r.method, r.body])).toEqual([
      ['POST', { name: 'from the hook', instructions: 'i' }],
    ]);
  });

  it('5 afterResponse alone re-sends the Request it is given, body and changed headers included, over real HTTP', async () => {
    const { server, bodies } = await tokenServer('new');
    const c = new Client({
      baseUrl: server.url,
      token: 'old',
      hooks: {
        afterResponse: [
          async ({ request, response }) => {
            if (response.status !== 401) return;
            request.headers.set('authorization', 'Bearer new');
            return fetch(request);
          },
        ],
      },
    });
    await expect(c.skills.create({ name: 'n', instructions: 'i' })).resolves.toMatchObject({ id: 1 });
    expect(server.requests.map((r) => r.headers.authorization)).toEqual(['Bearer old', 'Bearer new']);
    expect(bodies.map((body) => JSON.parse(body))).toEqual([
      { name: 'n', instructions: 'i' },
      { name: 'n', instructions: 'i' },
    ]);
  });

  it('7 beforeRetry runs before each retry, after onRetry; per-request hooks after the client ones', async () => {
    const { fetch } = fakeFetch(new TypeError('fetch failed'), new TypeError('fetch failed'), ok(skill()));
    const seen: string[] = [];
    const c = client(fetch, {
      onRetry: ({ attempt }) => seen.push(`onRetry ${attempt}`),
      hooks: { beforeRetry: [({ attempt, error }) => seen.push(`client ${attempt} ${error.name}`)] },
    });
    await c.skills.get(1, { hooks: { beforeRetry: [({ attempt }) => seen.push(`call ${attempt}`)] } });
    expect(seen).toEqual([
      'onRetry 1',
      'client 1 ConnectionError',
      'call 1',
      'onRetry 2',
      'client 2 ConnectionError',
      'call 2',
    ]);
  });

  it('7 beforeError sees each failed exchange and may replace the error', async () => {
    class Tagged extends ConvoError {}
    const { fetch } = fakeFetch(fail(404, 'api_v1_not_found'));
    const seen: string[] = [];
    const c = client(fetch, { hooks: { beforeError: [({ error }) => void seen.push(error.name)] } });
    await c.skills.get(1).catch(() => {});
    const error = await c.skills
      .get(1, { hooks: { beforeError: [({ error }) => new Tagged(`tagged: ${error.message}`)] } })
      .catch((e: unknown) => e);
    expect(seen).toEqual(['NotFoundError', 'NotFoundError']);
    expect(error).toBeInstanceOf(Tagged);
  });
});

describe('withOptions and raw responses', () => {
  it('withOptions returns a client with the overrides, sharing the rest', async () => {
    const { fetch, requests } = fakeFetch(ok(skill()));
    const base = client(fetch, { headers: { 'x-app': 'a' } });
    const other = base.withOptions({ headers: { 'x-app': 'b' } });
    await base.skills.get(1);
    await other.skills.get(1);
    expect(other).not.toBe(base);
    expect(other.baseUrl).toBe(base.baseUrl);
    expect(requests.map((r) => [r.headers.get('x-app'), r.headers.get('authorization')])).toEqual([
      ['a', 'Bearer t'],
      ['b', 'Bearer t'],
    ]);
  });

  it('2.1 .withResponse() gives the data, the raw Response and the request id', async () => {
    const { fetch } = fakeFetch(
      Response.json(
        {
          status: 'success',
          message: 'OK',
          message_code: 'api_v1_ok',
          data: skill(),
          meta: { request_id: 'req-42' },
        },
        { headers: { 'x-served-by': 'edge-1' } },
      ),
    );
    const { data, response, requestId } = await client(fetch).skills.get(1).withResponse();
    expect(data).toMatchObject({ id: 1 });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-served-by')).toBe('edge-1');
    expect(requestId).toBe('req-42');
  });

  it('4.3 turns.send().withResponse() gives the turn with its key, the raw Response and the request id', async () => {
    const mock = createMock();
    const c = new Client({ baseUrl: mock.url, token: 'mock-token', fetch: mock.fetch });
    const chatId = crypto.randomUUID();
    const sent = c.turns.send(chatId, { content: 'Hello' }, { idempotencyKey: 'key-raw-1' });
    const { data, response, requestId } = await sent.withResponse();
    expect(data).toMatchObject({ chat_id: chatId, status: 'completed', idempotencyKey: 'key-raw-1' });
    expect(response.ok).toBe(true);
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(await sent).toEqual(data); // awaiting it gives the same turn, from the same exchange
  });

  it('2.1 a list call: PagePromise.withResponse() gives the first page with its response', async () => {
    const { fetch, requests } = fakeFetch(
      ok([skill()], { request_id: 'req-7', page: 1, size: 50, total: 1 }),
    );
    const listed = client(fetch).skills.list();
    const { data, requestId, response } = await listed.withResponse();
    expect(data.items).toHaveLength(1);
    expect(requestId).toBe('req-7');
    expect(response.ok).toBe(true);
    expect((await listed).items).toHaveLength(1);
    expect(requests).toHaveLength(1);
  });

  it('2.1 .asResponse() gives the raw Response alone: status and headers, its body already read', async () => {
    const { fetch, requests } = fakeFetch(
      Response.json(
        {
          status: 'success',
          message: 'OK',
          message_code: 'api_v1_ok',
          data: skill(),
          meta: { request_id: 'r' },
        },
        { headers: { 'x-served-by': 'edge-1' } },
      ),
    );
    const call = client(fetch).skills.get(1);
    const response = await call.asResponse();
    expect(response).toBeInstanceOf(Response);
    expect([response.status, response.headers.get('x-served-by')]).toEqual([200, 'edge-1']);
    expect(response.bodyUsed).toBe(true);
    expect(await call).toMatchObject({ id: 1 }); // the data, from the same exchange
    expect(requests).toHaveLength(1);
  });

  it('2.1 .asResponse() of a failed call rejects with its typed error; a list has it too', async () => {
    const { fetch } = fakeFetch(
      fail(404, 'api_v1_not_found'),
      ok([skill()], { request_id: 'r', page: 1, size: 50, total: 1 }),
    );
    const c = client(fetch, { maxRetries: 0 });
    await expect(c.skills.get(1).asResponse()).rejects.toBeInstanceOf(NotFoundError);
    const response = await c.skills.list().asResponse();
    expect([response.status, response.bodyUsed]).toEqual([200, true]);
  });

  it('4.1 a check that fails rejects the ApiPromise (and its withResponse) instead of throwing', async () => {
    const { fetch, requests } = fakeFetch(ok(skill()));
    const call = client(fetch).skills.create({ name: 'n', instructions: 'x'.repeat(12_001) });
    await expect(call).rejects.toBeInstanceOf(ValidationError);
    await expect(call.withResponse()).rejects.toBeInstanceOf(ValidationError);
    expect(requests).toHaveLength(0);
  });
});

describe('base URL mistakes', () => {
  for (const baseUrl of [
    'https://api.test/api/v1',
    'https://api.test/api/v1/',
    'https://api.test/prefix/api/v1',
  ]) {
    it(`a baseUrl ending in /api/v1 (${baseUrl}) is refused with the value to pass`, () => {
      const expected = baseUrl.replace(/\/api\/v1\/?$/, '');
      expect(() => new Client({ baseUrl, token: 't' })).toThrow(ValidationError);
      expect(() => new Client({ baseUrl, token: 't' })).toThrow(`pass ${expected}`);
    });
  }

  it('a baseUrl of another scheme is refused', () => {
    expect(() => new Client({ baseUrl: 'ftp://api.test', token: 't' })).toThrow(/http or https/);
  });

  it('7.1 a 404 before any call succeeded names the URL used; after one did, a contract 404 does not', async () => {
    const { fetch } = fakeFetch(fail(404, 'api_v1_not_found'), ok(skill()), fail(404, 'api_v1_not_found'));
    const c = client(fetch);
    const first = await c.skills.get(1).catch((e: unknown) => e);
    expect((first as Error).message).toContain('GET https://api.test/api/v1/skills/1');
    expect((first as Error).message).toContain('baseUrl');
    await c.skills.get(1);
    const later = await c.skills.get(2).catch((e: unknown) => e);
    expect(later).toBeInstanceOf(NotFoundError);
    expect((later as Error).message).not.toContain('baseUrl');
  });

  it('7.1 a 404 that does not look like the contract names the URL, even after a success', async () => {
    const { fetch } = fakeFetch(ok(skill()), new Response('Cannot GET /x', { status: 404 }));
    const c = client(fetch);
    await c.skills.get(1);
    const error = await c.chats.get(CHAT).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as Error).message).toContain(`GET https://api.test/api/v1/chats/${CHAT}`);
  });
});

describe('a fetch that fails before any response', () => {
  it('in a browser the ConnectionError says CORS or the network is the likely cause', async () => {
    vi.stubGlobal('document', {});
    const { fetch } = fakeFetch(new TypeError('Failed to fetch'));
    const error = await client(fetch, { maxRetries: 0 })
      .skills.get(1)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toMatch(/Failed to fetch.*CORS.*network/);
  });

  it('outside a browser it names the cause only', async () => {
    const { fetch } = fakeFetch(new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED') }));
    const error = await client(fetch, { maxRetries: 0 })
      .skills.get(1)
      .catch((e: unknown) => e);
    expect((error as Error).message).toBe('the connection failed: connect ECONNREFUSED');
  });
});
