import type * as z from 'zod/mini';
import type { PageQuery } from '../contract/page.js';
import { PageQuerySchema } from '../contract/page.js';
import { Page, PagePromise } from '../http/page.js';
import { repeatable } from '../http/retry.js';
import type { RequestOptions, Transport } from '../http/transport.js';
import { checkInput } from '../validate.js';

/** Base of the namespaces: a thin layer of one method per endpoint over the shared transport. */
export abstract class Resource {
  /** @internal */
  protected readonly transport: Transport;

  /** @internal */
  constructor(transport: Transport) {
    this.transport = transport;
  }

  /** @internal A paginated GET: checks the page query, then pages lazily. */
  protected paginate<T>(
    path: string,
    items: z.ZodMiniType<T[]>,
    query: PageQuery & Record<string, string | number | boolean | undefined>,
    options: RequestOptions | undefined,
  ): PagePromise<T> {
    checkInput(PageQuerySchema, { page: query.page, size: query.size });
    const load = async (page: number): Promise<Page<T>> => {
      const { data, meta } = await this.transport.request({
        method: 'GET',
        path,
        query: { ...query, page },
        schema: items,
        retry: repeatable,
        options,
      });
      return new Page(data, meta, load);
    };
    return new PagePromise(() => load(query.page ?? 1));
  }
}
