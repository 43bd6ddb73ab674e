import { describe, expect, it, vi } from 'vitest';
import { ChatListQuerySchema } from '../../src/contract/chat.js';
import { PageQuerySchema } from '../../src/contract/page.js';
import { NO_REDACTION } from '../../src/contract/redact.js';
import { Transport } from '../../src/http/transport.js';
import { Client, ConnectionError, ValidationError } from '../../src/index.js';
import { Verbs } from '../../src/resources/resource.js';
import { fakeFetch, ok, skill } from '../support/fake-fetch.js';
import { EXAMPLES } from '../support/response-shapes.js';
import { surfaced } from '../support/surfaced.js';

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

const BAD = 'not-a-uuid';
const CHAT = '00000000-0000-4000-8000-000000000001';

/** Every verb called on a chat endpoint with the chat id `chat` and, where it takes one, a body or query. */
const CALLS = {
  call: (api: Verbs, chat: string) => api.call('chats.get', { chat_id: chat }, undefined),
  body: (api: Verbs, chat: string, input: unknown) =>
    api.call('chats.update', { chat_id: chat }, undefined, input as never),
  list: (api: Verbs, chat: string, input: unknown) =>
    api.list('chats.messages', { chat_id: chat }, input as never, undefined),
};

describe('resource verbs: the path and the input are checked before anything is sent', () => {
  for (const [verb, call] of Object.entries(CALLS)) {
    it(`${verb}: a path whose id fails its check rejects with the ValidationError naming it; 0 requests`, async () => {
      const { api, requests } = verbs(ok({ id: 1 }));
      const { threw, returned, error } = await surfaced(() => call(api, BAD, {}));
      expect([threw, returned]).toEqual([false, 'promise']);
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).issues[0]?.field).toBe('chat_id');
      expect(requests).toHaveLength(0);
    });
  }

  it('a body that fails its schema rejects with a ValidationError naming the field; 0 requests', async () => {
    const { api, requests } = verbs(ok({ id: 1 }));
    const error = await CALLS.body(api, CHAT, { name: 5 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues.map((i) => i.field)).toEqual(['name']);
    expect(requests).toHaveLength(0);
  });

  it('8 list: a query that fails its schema fails the await and the first read of a for await; 0 requests', async () => {
    const { api, requests } = verbs(ok([], { page: 1, size: 50, total: 0 }));
    await expect(CALLS.list(api, CHAT, { size: 201 })).rejects.toMatchObject({
      issues: [{ field: 'size', limit: 200 }],
    });
    const read = async () => {
      for await (const _ of CALLS.list(api, CHAT, { pages: 1 })) break;
    };
    await expect(read()).rejects.toMatchObject({ issues: [{ field: 'pages' }] });
    expect(requests).toHaveLength(0);
  });

  it('a skill id must be an integer: 1.5 is refused as skill_id before sending', async () => {
    const { api, requests } = verbs(ok({ id: 1 }));
    await expect(api.call('skills.get', { skill_id: 1.5 }, undefined)).rejects.toMatchObject({
      issues: [{ field: 'skill_id' }],
    });
    expect(requests).toHaveLength(0);
  });

  it("each call sends its endpoint's method and path, the body as given and no body where it takes none", async () => {
    const { api, requests } = verbs((request) =>
      ok(request.method === 'GET' && request.url.includes('page=') ? [] : { id: 1 }, {
        page: 1,
        size: 50,
        total: 0,
      }),
    );
    await api.call('skills.toggle', { skill_id: 3 }, undefined).catch(() => {});
    await api.call('skills.update', { skill_id: 3 }, undefined, { name: 'b' }).catch(() => {});
    await api.call('skills.delete', { skill_id: 3 }, undefined).catch(() => {});
    await api.list('skills.list', {}, {}, undefined);
    expect(requests.map((r) => [r.method, new URL(r.url).pathname + new URL(r.url).search, r.body])).toEqual([
      ['PATCH', '/api/v1/skills/3/toggle', undefined],
      ['PATCH', '/api/v1/skills/3', { name: 'b' }],
      ['DELETE', '/api/v1/skills/3', undefined],
      ['GET', '/api/v1/skills?page=1', undefined],
    ]);
  });

  it("each call runs under its endpoint's retry kind: a lost connection is repeated for a read, not for a create", async () => {
    for (const [name, kind] of [
      ['chats.get', 'repeatable'],
      ['chats.delete', 'write'],
    ] as const) {
      const { api, requests } = verbs(new TypeError('fetch failed'), ok({ id: 1 }));
      const call = api.call(name, { chat_id: CHAT }, undefined);
      if (kind === 'repeatable') await expect(call).rejects.not.toBeInstanceOf(ConnectionError);
      else await expect(call).rejects.toBeInstanceOf(ConnectionError);
      expect(requests, name).toHaveLength(kind === 'repeatable' ? 2 : 1);
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
        return ok([EXAMPLES.chat], { page, size: 1, total: 3 });
      });
      const query = { size: 1, is_favorite: true };
      for await (const _ of (await api.list('chats.list', {}, query, undefined)).iterPages());
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
