import type { Meta } from '../contract/envelope.js';
import { ResponseValidationError } from '../errors/index.js';
import type { WithResponse } from './api-promise.js';

/**
 * The most pages one iteration (`for await`, `iterPages()`) loads, the one it starts from included: past
 * it, a list that still says more follow fails with a `ResponseValidationError` rather than page on
 * without end (10,000 pages: 500,000 items at the default size, 2,000,000 at the largest).
 */
const MAX_PAGES = 10_000;

/** One page of a list, async-iterable over every item of this page and the ones after it. */
export class Page<T> implements AsyncIterable<T> {
  /** The items of this page. */
  readonly items: T[];
  /** Number of this page, from 1. */
  readonly page: number;
  /** Page size asked for. */
  readonly size: number;
  /** Number of items across all pages. */
  readonly total: number;
  readonly #load: (page: number) => Promise<Page<T>>;

  /**
   * @internal Lists make pages. `requested` is the page number asked for: a `meta` that names another
   * page, a size below 1 or a negative total breaks the contract, and paging on could loop.
   */
  constructor(items: T[], meta: Meta, load: (page: number) => Promise<Page<T>>, requested: number) {
    const { page, size, total } = meta;
    const wrong = (path: string, message: string) =>
      new ResponseValidationError(message, {
        path: `meta.${path}`,
        body: { data: items, meta },
        status: 200,
      });
    if (page === undefined || size === undefined || total === undefined) {
      const missing = page === undefined ? 'page' : size === undefined ? 'size' : 'total';
      throw wrong(missing, 'a list must carry page, size and total');
    }
    if (page !== requested) throw wrong('page', `page ${requested} was asked for, page ${page} came`);
    if (size < 1) throw wrong('size', `a page size must be 1 or more, got ${size}`);
    if (total < 0) throw wrong('total', `a total must be 0 or more, got ${total}`);
    this.items = items;
    this.page = page;
    this.size = size;
    this.total = total;
    this.#load = load;
  }

  /** Whether another page follows this one: this one is not empty, and `total` says items remain. */
  hasNextPage(): boolean {
    return this.items.length > 0 && this.page * this.size < this.total;
  }

  /**
   * Loads the next page; check `hasNextPage()` first. Rejects with a `ResponseValidationError` when the
   * response is not that page (or has a size below 1).
   */
  nextPage(): Promise<Page<T>> {
    return this.#load(this.page + 1);
  }

  /**
   * This page, then each following one, loaded as the loop asks for it: `for await (const page of
   * first.iterPages())`. It ends after an empty page or the last one `total` allows, and loads at most
   * `MAX_PAGES` pages.
   */
  async *iterPages(): AsyncGenerator<Page<T>, void, undefined> {
    let current: Page<T> = this;
    for (let loaded = 1; ; loaded++) {
      yield current;
      if (!current.hasNextPage()) return;
      if (loaded >= MAX_PAGES) throw tooMany(current);
      current = await current.nextPage();
    }
  }

  /** Every item from this page on, loading the following pages as it goes. */
  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    for await (const page of this.iterPages()) yield* page.items;
  }
}

function tooMany(last: Page<unknown>): ResponseValidationError {
  return new ResponseValidationError(
    `the list says more than ${MAX_PAGES} pages (total ${last.total}, size ${last.size}): iteration stopped at page ${last.page}; page on with nextPage() to read further`,
    {
      path: 'meta.total',
      body: { meta: { page: last.page, size: last.size, total: last.total } },
      status: 200,
    },
  );
}

/**
 * What a list method returns: await it for the first `Page`, or iterate it with `for await` over every
 * item of every page. Nothing is sent until one of the two happens.
 */
export class PagePromise<T> implements Promise<Page<T>>, AsyncIterable<T> {
  /** Tag shown by `Object.prototype.toString`. */
  readonly [Symbol.toStringTag] = 'PagePromise';
  #loading: Promise<WithResponse<Page<T>>> | undefined;
  readonly #load: () => Promise<WithResponse<Page<T>>>;

  /** @internal */
  constructor(load: () => Promise<WithResponse<Page<T>>>) {
    this.#load = load;
  }

  /** The first page with its raw response and request id (sends the request if not sent yet). */
  withResponse(): Promise<WithResponse<Page<T>>> {
    this.#loading ??= this.#load();
    return this.#loading;
  }

  /**
   * The raw `Response` of the first page (status, headers), sending the request if not sent yet. Its body is
   * already read: the items are on the awaited page.
   */
  asResponse(): Promise<Response> {
    return this.withResponse().then((first) => first.response);
  }

  /** Every page, from the first, as the loop asks for it: `for await (const page of client.skills.list().iterPages())`. */
  async *iterPages(): AsyncGenerator<Page<T>, void, undefined> {
    yield* (await this.#first()).iterPages();
  }

  #first(): Promise<Page<T>> {
    return this.withResponse().then((first) => first.data);
  }

  // biome-ignore lint/suspicious/noThenProperty: a PagePromise is awaited like a promise on purpose.
  then<A = Page<T>, B = never>(
    onFulfilled?: ((page: Page<T>) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.#first().then(onFulfilled, onRejected);
  }

  /** Like `Promise.prototype.catch`. */
  catch<B = never>(onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<Page<T> | B> {
    return this.#first().catch(onRejected);
  }

  /** Like `Promise.prototype.finally`. */
  finally(onFinally?: (() => void) | null): Promise<Page<T>> {
    return this.#first().finally(onFinally);
  }

  /** Every item of every page. */
  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    yield* await this.#first();
  }
}
