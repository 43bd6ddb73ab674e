import type * as z from 'zod/mini';
import type { PageQuery } from '../contract/page.js';
import { PageQuerySchema } from '../contract/page.js';
import { ApiPromise } from '../http/api-promise.js';
import { Page, PagePromise } from '../http/page.js';
import { repeatable } from '../http/retry.js';
import type { RequestOptions, Result, Transport } from '../http/transport.js';
import { checkInput } from '../validate.js';

/** Base of the namespaces: a thin layer of one method per endpoint over the shared transport. */
export abstract class Resource {
  /** @internal */
  protected readonly transport: Transport;

  /** @internal */
  constructor(transport: Transport) {
    this.transport = transport;
  }

  /** A paginated GET: checks the page query, then pages lazily. */
  protected paginate<T>(
    path: string,
    items: z.ZodMiniType<T[]>,
    query: PageQuery & Record<string, string | number | boolean | undefined>,
    options: RequestOptions | undefined,
  ): PagePromise<T> {
    checkInput(PageQuerySchema, { page: query.page, size: query.size });
    const fetch = async (page: number) => {
      const { data, meta, response } = await this.transport.request({
        method: 'GET',
        path,
        query: { ...query, page },
        schema: items,
        retry: repeatable,
        options,
      });
      return { data: new Page(data, meta, load), response, requestId: meta.request_id };
    };
    const load = async (page: number): Promise<Page<T>> => (await fetch(page)).data;
    return new PagePromise(() => fetch(query.page ?? 1));
  }

  /** @internal Runs `send` (checks, then one call) as an `ApiPromise`: a check that throws rejects it. */
  protected call<T>(send: () => Promise<Result<T>>): ApiPromise<T> {
    return new ApiPromise(send());
  }
}
