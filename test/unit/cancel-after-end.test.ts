import { describe, expect, it, vi } from 'vitest';
import {
  AbortError,
  ApiError,
  Client,
  ConflictError,
  type TurnStream,
  ValidationError,
} from '../../src/index.js';
import { createMock } from '../../src/mock/index.js';

// 4.6: a cancel without `action_id` ends the chat's live turn. Once a stream read its terminal event, the
// turn it sent is over: its `cancel()` must not reach the next turn of that chat.

/** Rewrites the answer of a message listing: `page` is the one asked for, `body` the chat's first page. */
type Listing = (page: number, body: { data: { id: number }[]; meta: object }) => object | Response;

function setup(listing?: Listing) {
  const mock = createMock();
  const cancels: string[] = [];
  const listings: string[] = [];
  const fetch = (input: Request | URL | string, init?: RequestInit) => {
    const request = new Request(input, init);
    const { pathname } = new URL(request.url);
    if (pathname.endsWith('/actions/cancel')) cancels.push(request.url);
    if (request.method !== 'GET' || !pathname.endsWith('/messages')) return mock.fetch(request);
    listings.push(request.url);
    if (!listing) return mock.fetch(request);
    return rewrite(request, listing);
  };
  const rewrite = async (request: Request, listing: Listing) => {
    const url = new URL(request.url);
    const page = Number(url.searchParams.get('page'));
    // The chat's few turns, whatever page was asked for: `listing` says where they are.
    url.searchParams.set('page', '1');
    const changed = listing(page, await (await mock.fetch(new Request(url, request))).json());
    return changed instanceof Response ? changed : Response.json(changed);
  };
  const client = new Client({ baseUrl: mock.url, token: 'mock-token', fetch });
  return { mock, client, cancels, listings };
}

/** Reads `stream` until its turn started; returns a reader of the rest. */
async function started(stream: TurnStream) {
  const iterator = stream[Symbol.asyncIterator]();
  for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
    if (next.value.type === 'start') break;
  }
  return async () => {
    const types: string[] = [];
    for (let next = await iterator.next(); !next.done; next = await iterator.next())
      types.push(next.value.type);
    return types;
  };
}

describe('stream.cancel() after the terminal event', () => {
  it.each([
    ['completed', 'hello'],
    ['cancelled', '[[mock:hang]]'],
    ['error', '[[mock:error code=turn_timeout]]'],
  ])(
    '4.6 after a %s end it sends nothing, resolves cancelled: false, and the next turn of the chat runs on',
    async (end, content) => {
      const { mock, client, cancels } = setup();
      const chat = await client.chats.create({});
      const a = client.turns.stream(chat.id, { content });
      if (end === 'cancelled') {
        const rest = await started(a);
        await a.cancel();
        await rest();
      }
      expect((await a.done()).type).toBe(end);
      const sentForA = cancels.length;

      const b = client.turns.stream(chat.id, { content: '[[mock:hang]]' });
      const rest = await started(b);
      expect(await a.cancel()).toEqual({ chat_id: chat.id, cancelled: false });
      expect(await a.cancel()).toEqual({ chat_id: chat.id, cancelled: false });
      expect(cancels).toHaveLength(sentForA);
      expect(mock.store.turns().at(-1)).toMatchObject({ status: 'pending', prompt: '[[mock:hang]]' });

      // B was live all along: its own cancel is the one that ends it.
      expect(await b.cancel()).toEqual({ chat_id: chat.id, cancelled: true });
      expect((await rest()).at(-1)).toBe('cancelled');
      expect(cancels).toHaveLength(sentForA + 1);
    },
  );

  it('4.6 a stream read through tee() knows its turn ended: cancel() sends nothing', async () => {
    const { client, cancels } = setup();
    const chat = await client.chats.create({});
    const stream = client.turns.stream(chat.id, { content: 'hello' });
    const [left, right] = stream.tee();
    await Promise.all([left.done(), right.done()]);
    expect(await stream.cancel()).toEqual({ chat_id: chat.id, cancelled: false });
    expect(await left.cancel()).toEqual({ chat_id: chat.id, cancelled: false });
    expect(cancels).toHaveLength(0);
  });

  it('4.6 tee(): one branch read the end, the other has not; its cancel() spares the next turn', async () => {
    const { mock, client, cancels } = setup();
    const chat = await client.chats.create({});
    const [left, right] = client.turns.stream(chat.id, { content: 'hello' }).tee();
    expect((await left.done()).type).toBe('completed');

    const next = client.turns.stream(chat.id, { content: '[[mock:hang]]' });
    const rest = await started(next);
    await started(right);
    expect(await right.cancel()).toEqual({ chat_id: chat.id, cancelled: false });
    expect(cancels).toHaveLength(0);
    expect(mock.store.turns().at(-1)).toMatchObject({ status: 'pending', prompt: '[[mock:hang]]' });
    expect(await next.cancel()).toEqual({ chat_id: chat.id, cancelled: true });
    expect((await rest()).at(-1)).toBe('cancelled');
  });

  it('4.6 a stream aborted before its terminal event still cancels its turn, which runs on', async () => {
    const { client, cancels, listings } = setup();
    const chat = await client.chats.create({});
    const stream = client.turns.stream(chat.id, { content: '[[mock:hang]]' });
    const rest = await started(stream);
    stream.abort();
    await expect(rest()).rejects.toThrow(AbortError);
    expect(await stream.cancel()).toEqual({ chat_id: chat.id, cancelled: true });
    expect(cancels).toHaveLength(1);
    expect(listings).toHaveLength(1);
  });

  it('4.6 aborted after the start, its turn then completed: cancel() checks it and spares the next turn', async () => {
    const { mock, client, cancels, listings } = setup();
    const chat = await client.chats.create({});
    const stream = client.turns.stream(chat.id, { content: '[[mock:slow ms=20]] [[mock:words n=5]]' });
    const rest = await started(stream);
    stream.abort();
    await expect(rest()).rejects.toThrow(AbortError);
    // 4.4: the turn finishes though the client left.
    await vi.waitFor(() => expect(mock.store.turns().at(-1)?.status).toBe('completed'), { timeout: 10_000 });

    const next = client.turns.stream(chat.id, { content: '[[mock:hang]]' });
    const nextRest = await started(next);
    expect(await stream.cancel()).toEqual({ chat_id: chat.id, cancelled: false });
    expect(cancels).toHaveLength(0);
    expect(listings).toHaveLength(1);
    expect(mock.store.turns().at(-1)).toMatchObject({ status: 'pending', prompt: '[[mock:hang]]' });
    expect(await next.cancel()).toEqual({ chat_id: chat.id, cancelled: true });
    expect((await nextRest()).at(-1)).toBe('cancelled');
  });

  /** A turn aborted after its start that completed, with a hanging turn after it; `cancel` is its cancel(). */
  async function abortedThenNext(listing?: Listing) {
    const context = setup(listing);
    const chat = await context.client.chats.create({});
    const stream = context.client.turns.stream(chat.id, { content: '[[mock:slow ms=5]] hello' });
    const rest = await started(stream);
    stream.abort();
    await expect(rest()).rejects.toThrow(AbortError);
    await vi.waitFor(() => expect(context.mock.store.turns().at(-1)?.status).toBe('completed'), {
      timeout: 10_000,
    });
    await started(context.client.turns.stream(chat.id, { content: '[[mock:hang]]' }));
    return { ...context, chat, stream };
  }

  it('4.2: in a chat of more than one page of turns, the turn is looked for on the last page too', async () => {
    const { chat, stream, cancels, listings } = await abortedThenNext((page, body) =>
      // 201 to 400 turns: the first page has 200 others, the last (second) one has these.
      page === 1
        ? { ...body, data: [], meta: { ...body.meta, total: 400 } }
        : { ...body, meta: { ...body.meta, page, total: 400 } },
    );
    expect(await stream.cancel()).toEqual({ chat_id: chat.id, cancelled: false });
    expect(listings.map((url) => new URL(url).searchParams.get('page'))).toEqual(['1', '2']);
    expect(new URL(listings[0] ?? '').searchParams.get('size')).toBe('200');
    expect(cancels).toHaveLength(0);
  });

  it('4.6 a turn the listing does not show, or shows with a status this client does not know, is cancelled', async () => {
    for (const listing of [
      (_: number, body: { data: object[]; meta: object }) => ({ ...body, data: [] }),
      (_: number, body: { data: object[]; meta: object }) => ({
        ...body,
        data: body.data.map((turn) => ({ ...turn, status: 'paused' })),
      }),
    ]) {
      const { stream, cancels, listings } = await abortedThenNext(listing);
      expect((await stream.cancel()).cancelled).toBe(true);
      expect(listings).toHaveLength(1);
      expect(cancels).toHaveLength(1);
    }
  });

  it('4.6 when the turn cannot be looked up, cancel() rejects with that error and sends nothing', async () => {
    const refused = Response.json(
      { status: 'error', message: 'Not found.', message_code: 'api_v1_not_found' },
      { status: 404 },
    );
    const { stream, cancels } = await abortedThenNext(() => refused);
    await expect(stream.cancel()).rejects.toBeInstanceOf(ApiError);
    expect(cancels).toHaveLength(0);
  });

  it('7.4: a send refused with 409 api_v1_chat_busy started no turn: cancel() sends nothing, the running turn goes on', async () => {
    const { mock, client, cancels, listings } = setup();
    const chat = await client.chats.create({});
    const running = client.turns.stream(chat.id, { content: '[[mock:hang]]' });
    await started(running);
    const refused = client.turns.stream(chat.id, { content: 'hello' });
    await expect(refused.done()).rejects.toMatchObject({ code: 'api_v1_chat_busy' });
    await expect(refused.done()).rejects.toBeInstanceOf(ConflictError);
    expect(await refused.cancel()).toEqual({ chat_id: chat.id, cancelled: false });
    expect(cancels).toHaveLength(0);
    expect(listings).toHaveLength(0);
    expect(mock.store.turns().at(-1)).toMatchObject({ status: 'pending', prompt: '[[mock:hang]]' });
  });

  it('a stream whose body failed its check sent nothing: cancel() sends nothing either', async () => {
    const { mock, client, cancels } = setup();
    const chat = await client.chats.create({});
    await started(client.turns.stream(chat.id, { content: '[[mock:hang]]' }));
    const invalid = client.turns.stream(chat.id, { content: 'x'.repeat(64_001) });
    await expect(invalid.done()).rejects.toBeInstanceOf(ValidationError);
    expect(await invalid.cancel()).toEqual({ chat_id: chat.id, cancelled: false });
    expect(cancels).toHaveLength(0);
    expect(mock.store.turns().at(-1)).toMatchObject({ status: 'pending' });
  });
});
