import { describe, expect, it } from 'vitest';
import { Client, Page, ResponseValidationError } from '../../src/index.js';
import { fakeFetch, ok, skill } from '../support/fake-fetch.js';

function pages(total: number, size: number) {
  return (request: Request) => {
    const url = new URL(request.url);
    const page = Number(url.searchParams.get('page'));
    const first = (page - 1) * size;
    const items = Array.from({ length: Math.max(0, Math.min(size, total - first)) }, (_, i) =>
      skill({ id: first + i + 1 }),
    );
    return ok(items, { page, size, total });
  };
}

describe('pagination', () => {
  it('2.1 a list resolves to a page with items, page, size and total', async () => {
    const { fetch, requests } = fakeFetch(pages(5, 2));
    const page = await new Client({ baseUrl: 'https://a.test', token: 't', fetch }).skills.list({ size: 2 });
    expect(page).toBeInstanceOf(Page);
    expect(page.items.map((s) => s.id)).toEqual([1, 2]);
    expect([page.page, page.size, page.total]).toEqual([1, 2, 5]);
    expect(page.hasNextPage()).toBe(true);
    expect(new URL(requests[0]!.url).searchParams.get('size')).toBe('2');
  });

  it('4 for await over a list reads every item of every page', async () => {
    const { fetch, requests } = fakeFetch(pages(5, 2));
    const ids: number[] = [];
    for await (const s of new Client({ baseUrl: 'https://a.test', token: 't', fetch }).skills.list({
      size: 2,
    })) {
      ids.push(s.id);
    }
    expect(ids).toEqual([1, 2, 3, 4, 5]);
    expect(requests).toHaveLength(3);
  });

  it('a list sends nothing until it is awaited or iterated', async () => {
    const { fetch, requests } = fakeFetch(pages(1, 50));
    const list = new Client({ baseUrl: 'https://a.test', token: 't', fetch }).skills.list();
    await new Promise((r) => setTimeout(r, 5));
    expect(requests).toHaveLength(0);
    await list;
    expect(requests).toHaveLength(1);
  });

  it('8 iterPages() on a list gives every page in order, each loaded only when the loop asks for it', async () => {
    const { fetch, requests } = fakeFetch(pages(5, 2));
    const client = new Client({ baseUrl: 'https://a.test', token: 't', fetch });
    const seen: Array<[number, number[]]> = [];
    for await (const page of client.skills.list({ size: 2 }).iterPages()) {
      expect(page).toBeInstanceOf(Page);
      seen.push([page.page, page.items.map((s) => s.id)]);
      expect(requests).toHaveLength(page.page);
    }
    expect(seen).toEqual([
      [1, [1, 2]],
      [2, [3, 4]],
      [3, [5]],
    ]);
  });

  it('8 iterPages() on a page starts at that page; leaving the loop loads no further page', async () => {
    const { fetch, requests } = fakeFetch(pages(9, 2));
    const second = await new Client({ baseUrl: 'https://a.test', token: 't', fetch }).skills.list({
      page: 2,
      size: 2,
    });
    for await (const page of second.iterPages()) {
      if (page.page === 3) break;
    }
    expect(requests.map((r) => new URL(r.url).searchParams.get('page'))).toEqual(['2', '3']);
  });

  it('8 iterPages() of an empty list gives its one empty page', async () => {
    const { fetch } = fakeFetch(pages(0, 2));
    const all = [];
    for await (const page of new Client({ baseUrl: 'https://a.test', token: 't', fetch }).skills
      .list()
      .iterPages())
      all.push(page.items.length);
    expect(all).toEqual([0]);
  });

  it('iterating from a later page starts there', async () => {
    const { fetch } = fakeFetch(pages(5, 2));
    const page = await new Client({ baseUrl: 'https://a.test', token: 't', fetch }).skills.list({
      page: 2,
      size: 2,
    });
    const ids: number[] = [];
    for await (const s of page) ids.push(s.id);
    expect(ids).toEqual([3, 4, 5]);
  });

  it('2.1 a list without meta.total is a ResponseValidationError', async () => {
    const { fetch } = fakeFetch(ok([], { page: 1, size: 50 }));
    const error = await new Client({ baseUrl: 'https://a.test', token: 't', fetch }).skills
      .list()
      .then(undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).path).toBe('meta.total');
  });
});
