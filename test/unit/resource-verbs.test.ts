import { describe, expect, it, vi } from 'vitest';
import * as z from 'zod/mini';
import { ChatListQuerySchema } from '../../src/contract/chat.js';
import { PageQuerySchema } from '../../src/contract/page.js';
import { NO_REDACTION } from '../../src/contract/redact.js';
import { Transport } from '../../src/http/transport.js';
import { Client, ConnectionError, ValidationError } from '../../src/index.js';
import { type Path, Verbs } from '../../src/resources/resource.js';
import { fakeFetch, ok, skill } from '../support/fake-fetch.js';
import { surfaced } from '../support/surfaced.js';

const Data = z.object({ id: z.number() });
const Body = z.strictObject({ name: z.string() });

function verbs(...replies: Parameters<typeof fakeFetch>) {
  const { fetch, requests } = fakeFetch(...replies);
  const transport = new Transport({
    baseUrl: 'https://api.test',
    token: 't',
    fetch,
    timeout: 1_000,
    headers: {},
    logger: undefined,
    maxResponseBytes: 1_000_000,
    hooks: undefined,
    redact: NO_REDACTION,
    retry: { maxRetries: 1, minDelayMs: 0, maxDelayMs: 0, maxRetryAfterMs: 0, onRetry: undefined },
  });
  return { api: new Verbs(transport), requests };
}

/** A path whose id fails its check, as `chatAt` of a bad chat id does. */
const badPath: Path = () => {
  throw new ValidationError([{ field: 'chat_id', message: 'must be a UUID' }]);
};

/** Every verb called with `path` and, where it takes one, a body or query of `input`. */
const CALLS = {
  get: (api: Verbs, path: Path) => api.get(path, Data, 'repeatable', undefined),
  post: (api: Verbs, path: Path, input: unknown) => api.post(path, Data, 'write', undefined, [Body, input]),
  patch: (api: Verbs, path: Path, input: unknown) =>
    api.patch(path, Data, 'repeatable', undefined, [Body, input]),
  delete: (api: Verbs, path: Path) => api.delete(path, Data, 'write', undefined),
  list: (api: Verbs, path: Path, input: unknown) =>
    api.list(path, z.array(Data), 'repeatable', undefined, [PageQuerySchema, input as never]),
};

describe('resource verbs: the path and the input are checked before anything is sent', () => {
  for (const [verb, call] of Object.entries(CALLS)) {
    it(`${verb}: a path whose id fails its check rejects with the ValidationError naming it; 0 requests`, async () => {
      const { api, requests } = verbs(ok({ id: 1 }));
      const { threw, returned, error } = await surfaced(() => call(api, badPath, { name: 'a' }));
      expect([threw, returned]).toEqual([false, 'promise']);
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).issues[0]?.field).toBe('chat_id');
      expect(requests).toHaveLength(0);
    });
  }

  for (const verb of ['post', 'patch'] as const) {
    it(`${verb}: a body that fails its schema rejects with a ValidationError naming the field; 0 requests`, async () => {
      const { api, requests } = verbs(ok({ id: 1 }));
      const error = await CALLS[verb](api, 'things', { name: 5 }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).issues.map((i) => i.field)).toEqual(['name']);
      expect(requests).toHaveLength(0);
    });
  }

  it('8 list: a query that fails its schema fails the await and the first read of a for await; 0 requests', async () => {
    const { api, requests } = verbs(ok([], { page: 1, size: 50, total: 0 }));
    await expect(CALLS.list(api, 'things', { size: 201 })).rejects.toMatchObject({
      issues: [{ field: 'size', limit: 200 }],
    });
    const read = async () => {
      for await (const _ of CALLS.list(api, 'things', { pages: 1 })) break;
    };
    await expect(read()).rejects.toMatchObject({ issues: [{ field: 'pages' }] });
    expect(requests).toHaveLength(0);
  });

  it('each verb sends its method, the path, the body as given and no body where it takes none', async () => {
    const { api, requests } = verbs((request) =>
      ok(request.method === 'GET' && request.url.includes('page=') ? [] : { id: 1 }, {
        page: 1,
        size: 50,
        total: 0,
      }),
    );
    await CALLS.get(api, () => 'things/1');
    await CALLS.post(api, 'things', { name: 'a' });
    await CALLS.patch(api, () => 'things/1', { name: 'b' });
    await api.patch('things/1/toggle', Data, 'write', undefined);
    await CALLS.delete(api, 'things/1');
    await CALLS.list(api, () => 'things', {});
    expect(requests.map((r) => [r.method, new URL(r.url).pathname + new URL(r.url).search, r.body])).toEqual([
      ['GET', '/api/v1/things/1', undefined],
      ['POST', '/api/v1/things', { name: 'a' }],
      ['PATCH', '/api/v1/things/1', { name: 'b' }],
      ['PATCH', '/api/v1/things/1/toggle', undefined],
      ['DELETE', '/api/v1/things/1', undefined],
      ['GET', '/api/v1/things?page=1', undefined],
    ]);
  });

  it('each verb runs under the policy kind it is given: a lost connection is repeated for repeatable, not for write', async () => {
    for (const verb of ['get', 'post', 'patch', 'delete'] as const) {
      for (const kind of ['repeatable', 'write'] as const) {
        const { api, requests } = verbs(new TypeError('fetch failed'), ok({ id: 1 }));
        const path = () => 'things/1';
        const call =
          verb === 'get' || verb === 'delete'
            ? api[verb](path, Data, kind)
            : api[verb](path, Data, kind, undefined, [Body, { name: 'a' }]);
        if (kind === 'repeatable') await expect(call).resolves.toEqual({ id: 1 });
        else await expect(call).rejects.toBeInstanceOf(ConnectionError);
        expect(requests, `${verb} ${kind}`).toHaveLength(kind === 'repeatable' ? 2 : 1);
      }
    }
  });
});

describe('8 the page query is checked once per list call', () => {
  function pages(total: number, size: number) {
    return fakeFetch((request: Request) => {
      const page = Number(new URL(request.url).searchParams.get('page'));
      const first = (page - 1) * size;
      const count = Math.max(0, Math.min(size, total - first));
      return ok(
        Array.from({ length: count }, (_, i) => skill({ id: first + i + 1 })),
        { page, size, total },
      );
    });
  }

  it('8 reading every page of a list checks its query once, however many pages load', async () => {
    const check = vi.spyOn(PageQuerySchema, 'safeParse');
    try {
      const { fetch, requests } = pages(5, 2);
      const list = new Client({ baseUrl: 'https://a.test', token: 't', fetch }).skills.list({ size: 2 });
      await list;
      await list.withResponse();
      const ids: number[] = [];
      for await (const item of list) ids.push(item.id);
      expect(ids).toEqual([1, 2, 3, 4, 5]);
      expect(requests).toHaveLength(3);
      expect(check).toHaveBeenCalledTimes(1);
    } finally {
      check.mockRestore();
    }
  });

  it('8 a filtered list checks its query once and sends it, filter included, on every page', async () => {
    const check = vi.spyOn(ChatListQuerySchema, 'safeParse');
    try {
      const { api, requests } = verbs((request) => {
        const page = Number(new URL(request.url).searchParams.get('page'));
        return ok([{ id: page }], { page, size: 1, total: 3 });
      });
      const query = [ChatListQuerySchema, { size: 1, is_favorite: true }] as const;
      for await (const _ of (
        await api.list('chats', z.array(Data), 'repeatable', undefined, query)
      ).iterPages());
      expect(requests.map((r) => new URL(r.url).search)).toEqual([
        '?size=1&is_favorite=true&page=1',
        '?size=1&is_favorite=true&page=2',
        '?size=1&is_favorite=true&page=3',
      ]);
      expect(check).toHaveBeenCalledTimes(1);
    } finally {
      check.mockRestore();
    }
  });
});
