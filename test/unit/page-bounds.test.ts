import { describe, expect, it } from 'vitest';
import { Client, ResponseValidationError } from '../../src/index.js';
import { fakeFetch, ok, skill } from '../support/fake-fetch.js';

// Pagination moves only forward (4: lists take `page` from 1 and `size` from 1): a server whose `meta`
// would make paging loop fails with a typed error naming the field, and every loop below counts requests.

type Meta = { page?: number; size?: number; total?: number };

/** A server that answers each page with `items` items and the `meta` that `meta(asked)` gives. */
function hostile(meta: (asked: number) => Meta, items = 2) {
  return fakeFetch((request) => {
    const asked = Number(new URL(request.url).searchParams.get('page'));
    return ok(
      Array.from({ length: items }, (_, i) => skill({ id: asked * 10 + i })),
      meta(asked),
    );
  });
}

function client(fetch: typeof globalThis.fetch) {
  return new Client({ baseUrl: 'https://a.test', token: 't', fetch, maxRetries: 0 });
}

async function readAll<T>(iterable: AsyncIterable<T>): Promise<{ seen: T[]; error: unknown }> {
  const seen: T[] = [];
  try {
    for await (const value of iterable) seen.push(value);
    return { seen, error: undefined };
  } catch (error) {
    return { seen, error };
  }
}

function expectWrong(error: unknown, path: string, message: RegExp): void {
  expect(error).toBeInstanceOf(ResponseValidationError);
  expect((error as ResponseValidationError).path).toBe(path);
  expect((error as ResponseValidationError).status).toBe(200);
  expect((error as Error).message).toMatch(message);
}

const huge = 1_000_000_000;

describe('pagination moves only forward', () => {
  it('4 a page that never advances (meta.page stays 1) fails the loop at the second page: 2 requests', async () => {
    const { fetch, requests } = hostile(() => ({ page: 1, size: 2, total: huge }));
    const { seen, error } = await readAll(client(fetch).skills.list({ size: 2 }));
    expectWrong(error, 'meta.page', /page 2 was asked for, page 1 came/);
    expect(seen.map((s) => s.id)).toEqual([10, 11]);
    expect(requests).toHaveLength(2);
  });

  it('4 page 0 (pages start at 1) to a request for page 1 is a ResponseValidationError naming meta.page', async () => {
    const { fetch, requests } = hostile(() => ({ page: 0, size: 2, total: huge }));
    const error = await client(fetch)
      .skills.list()
      .then(undefined, (e: unknown) => e);
    expectWrong(error, 'meta.page', /page 1 was asked for, page 0 came/);
    expect((error as ResponseValidationError).body).toEqual({
      data: [expect.objectContaining({ id: 10 }), expect.objectContaining({ id: 11 })],
      meta: expect.objectContaining({ page: 0, size: 2, total: huge }),
    });
    expect(requests).toHaveLength(1);
  });

  it('4 a list asked from page 3 that answers page 2 fails; the one that answers page 3 is read on', async () => {
    const behind = hostile((asked) => ({ page: asked - 1, size: 2, total: huge }));
    const error = await client(behind.fetch)
      .skills.list({ page: 3, size: 2 })
      .then(undefined, (e: unknown) => e);
    expectWrong(error, 'meta.page', /page 3 was asked for, page 2 came/);
    const right = hostile((asked) => ({ page: asked, size: 2, total: 8 }));
    const { seen } = await readAll(client(right.fetch).skills.list({ page: 3, size: 2 }));
    expect(seen.map((s) => s.id)).toEqual([30, 31, 40, 41]);
    expect(right.requests.map((r) => new URL(r.url).searchParams.get('page'))).toEqual(['3', '4']);
  });

  it.each([0, -1, -200])(
    '4 a size of %i is a ResponseValidationError naming meta.size: 1 request',
    async (size) => {
      const { fetch, requests } = hostile((asked) => ({ page: asked, size, total: huge }));
      const { seen, error } = await readAll(client(fetch).skills.list());
      expectWrong(error, 'meta.size', new RegExp(`a page size must be 1 or more, got ${size}`));
      expect(seen).toEqual([]);
      expect(requests).toHaveLength(1);
    },
  );

  it('2.1 a negative total is a ResponseValidationError naming meta.total', async () => {
    const { fetch } = hostile((asked) => ({ page: asked, size: 2, total: -1 }));
    const error = await client(fetch)
      .skills.list()
      .then(undefined, (e: unknown) => e);
    expectWrong(error, 'meta.total', /a total must be 0 or more, got -1/);
  });

  it('a huge total with an empty page ends the loop at that page: 1 request, no error', async () => {
    const { fetch, requests } = hostile((asked) => ({ page: asked, size: 50, total: huge }), 0);
    const list = client(fetch).skills.list();
    const { seen, error } = await readAll(list);
    expect([seen, error]).toEqual([[], undefined]);
    expect(requests).toHaveLength(1);
    const pages = await readAll(client(fetch).skills.list().iterPages());
    expect(pages.seen.map((p) => [p.page, p.items.length])).toEqual([[1, 0]]);
    expect(pages.seen[0]!.hasNextPage()).toBe(false);
    expect(requests).toHaveLength(2);
  });

  it('the last page is the one whose page * size reaches total: total 4, size 2 -> 2 requests', async () => {
    const { fetch, requests } = hostile((asked) => ({ page: asked, size: 2, total: 4 }));
    const { seen } = await readAll(client(fetch).skills.list({ size: 2 }).iterPages());
    expect(seen.map((p) => [p.page, p.hasNextPage()])).toEqual([
      [1, true],
      [2, false],
    ]);
    expect(requests).toHaveLength(2);
  });

  it('a list that never ends (pages advance, total huge) stops after 10,000 pages with a ResponseValidationError', async () => {
    const { fetch, requests } = hostile((asked) => ({ page: asked, size: 1, total: huge }), 1);
    const { seen, error } = await readAll(client(fetch).skills.list({ size: 1 }).iterPages());
    expectWrong(
      error,
      'meta.total',
      /more than 10000 pages \(total 1000000000, size 1\).*stopped at page 10000/,
    );
    expect((error as ResponseValidationError).body).toEqual({ meta: { page: 10_000, size: 1, total: huge } });
    expect(seen).toHaveLength(10_000);
    expect(requests).toHaveLength(10_000);
  });

  it('iterPages() from a later page counts its 10,000 pages from there', async () => {
    const { fetch, requests } = hostile((asked) => ({ page: asked, size: 1, total: huge }), 1);
    const first = await client(fetch).skills.list({ page: 5, size: 1 });
    const { seen, error } = await readAll(first.iterPages());
    expectWrong(error, 'meta.total', /stopped at page 10004/);
    expect(seen.at(-1)?.page).toBe(10_004);
    expect(requests).toHaveLength(10_000);
  });

  it('nextPage() follows the same rules: a page that does not advance rejects with meta.page', async () => {
    const { fetch, requests } = hostile(() => ({ page: 1, size: 2, total: huge }));
    const first = await client(fetch).skills.list({ size: 2 });
    expect(first.hasNextPage()).toBe(true);
    const error = await first.nextPage().then(undefined, (e: unknown) => e);
    expectWrong(error, 'meta.page', /page 2 was asked for, page 1 came/);
    expect(requests).toHaveLength(2);
  });

  it.each([
    ['page', { size: 2, total: 4 }],
    ['size', { page: 1, total: 4 }],
    ['total', { page: 1, size: 2 }],
  ] as const)('2.1 a list without meta.%s is a ResponseValidationError naming it', async (missing, meta) => {
    const { fetch } = fakeFetch(ok([skill()], meta));
    const error = await client(fetch)
      .skills.list()
      .then(undefined, (e: unknown) => e);
    expectWrong(error, `meta.${missing}`, /a list must carry page, size and total/);
    expect((error as ResponseValidationError).body).toEqual({
      data: [expect.objectContaining({ id: 1 })],
      meta: expect.objectContaining(meta),
    });
  });

  it('a PagePromise is tagged PagePromise and its finally() runs once the first page came', async () => {
    const { fetch } = hostile((asked) => ({ page: asked, size: 2, total: 2 }));
    const list = client(fetch).skills.list();
    expect(Object.prototype.toString.call(list)).toBe('[object PagePromise]');
    let ran = 0;
    const page = await list.finally(() => {
      ran++;
    });
    expect([ran, page.items.length]).toEqual([1, 2]);
  });
});
