import type * as z from 'zod/mini';
import type { PageQuery } from '../contract/page.js';
import { ApiPromise } from '../http/api-promise.js';
import { Page, PagePromise } from '../http/page.js';
import type { RequestOptions, Result, Transport } from '../http/transport.js';
import { checkInput } from '../http/validate.js';

/** Base of the namespaces: a thin layer of one method per endpoint over the shared transport. */
export abstract class Resource {
  /** @internal */
  protected readonly transport: Transport;

  /** @internal */
  constructor(transport: Transport) {
    this.transport = transport;
  }

  /**
   * @internal A paginated GET, paged lazily. The query (against `querySchema`) and `path()` are checked
   * when the first page is asked for, so that a bad input rejects the await or fails the first read of a
   * `for await`, as any other error of the call does.
   */
  protected paginate<T>(
    path: () => string,
    querySchema: z.ZodMiniType<unknown>,
    items: z.ZodMiniType<T[]>,
    query: PageQuery & Record<string, string | number | boolean | undefined>,
    options: RequestOptions | undefined,
  ): PagePromise<T> {
    const fetch = async (target: string, page: number) => {
      const { data, meta, response } = await this.transport.request({
        method: 'GET',
        path: target,
        query: { ...query, page },
        schema: items,
        kind: 'read',
        options,
      });
      const load = async (next: number): Promise<Page<T>> => (await fetch(target, next)).data;
      return { data: new Page(data, meta, load, page), response, requestId: meta.request_id };
    };
    return new PagePromise(async () => {
      checkInput(querySchema, query);
      return fetch(path(), query.page ?? 1);
    });
  }

  /** @internal Runs `send` (checks, then one call) as an `ApiPromise`: a check that throws rejects it. */
  protected call<T>(send: () => Promise<Result<T>>): ApiPromise<T> {
    return new ApiPromise(send());
  }
}
