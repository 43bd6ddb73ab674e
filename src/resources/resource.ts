import type * as z from 'zod/mini';
import {
  type DataOf,
  ENDPOINTS,
  type Endpoint,
  type EndpointName,
  PATH_PARAMS,
  type PathParamName,
  type PathParams,
} from '../contract/endpoints.js';
import { ApiPromise } from '../http/api-promise.js';
import { Page, PagePromise } from '../http/page.js';
import type { Call, RequestOptions, Result, Transport } from '../http/transport.js';
import { checkInput } from '../http/validate.js';

type Table = typeof ENDPOINTS;

/** @internal The ids an endpoint's path takes. */
export type ParamsOf<N extends EndpointName> = PathParams<Table[N]['path']>;

/** @internal The body an endpoint takes, as its schema accepts it. */
export type BodyOf<N extends EndpointName> = Table[N] extends { body: z.ZodMiniType<unknown, infer I> }
  ? I
  : never;

/** @internal The query a list endpoint takes, as its schema accepts it. */
export type QueryOf<N extends EndpointName> = Table[N] extends { query: z.ZodMiniType<unknown, infer I> }
  ? I
  : never;

/** @internal The names of the endpoints whose answer is one JSON `data` (not a page, not a stream). */
type CallName = {
  [N in EndpointName]: Table[N] extends { data: z.ZodMiniType; list?: never } ? N : never;
}[EndpointName];

/** @internal The names of the paginated endpoints. */
type ListName = { [N in EndpointName]: Table[N] extends { list: true } ? N : never }[EndpointName];

/** @internal One item of a list endpoint's page. */
type ItemOf<N extends ListName> = DataOf<Table[N]> extends ReadonlyArray<infer T> ? T : never;

/** @internal Sends a prepared call: the transport's plain request, or a turn's keyed exchange. */
export type Exchange<T, R> = (call: Call<T>) => Promise<Result<R>>;

/**
 * @internal The endpoint table (`contract/endpoints.ts`) made callable: every resource method is one call
 * of `call` or `list` with its endpoint's name. Nothing is sent before the path's ids and the body or query
 * pass their checks; a failed check is a `ValidationError` naming the field, which rejects the call (or
 * fails a list's first read).
 */
export class Verbs {
  readonly #transport: Transport;

  constructor(transport: Transport) {
    this.#transport = transport;
  }

  /**
   * Calls endpoint `name`: its method and path, `body` checked against its schema, the answer's `data`
   * against its own. `exchange` sends it another way than one request (a turn under its key, an answer
   * before its deadline).
   */
  call<N extends CallName, R = DataOf<Table[N]>>(
    name: N,
    params: ParamsOf<N>,
    options: RequestOptions | undefined,
    body?: BodyOf<N>,
    exchange?: Exchange<DataOf<Table[N]>, R>,
  ): ApiPromise<R> {
    return new ApiPromise(
      (async () => {
        const prepared = this.prepare(name, params, body);
        const { method, data, kind }: Endpoint = ENDPOINTS[name];
        const chatId = (params as { chat_id?: string }).chat_id;
        const schema = data as z.ZodMiniType<DataOf<Table[N]>>;
        const call = { name, chatId, method, ...prepared, schema, kind, options };
        return exchange ? exchange(call) : (this.#transport.request(call) as Promise<Result<R>>);
      })(),
    );
  }

  /**
   * Pages through list endpoint `name` lazily. The path and the query are checked once, when the first
   * page is asked for; later pages reuse them with another page number.
   */
  list<N extends ListName>(
    name: N,
    params: ParamsOf<N>,
    query: QueryOf<N>,
    options: RequestOptions | undefined,
  ): PagePromise<ItemOf<N>> {
    const { data, kind, query: querySchema }: Endpoint = ENDPOINTS[name];
    const schema = data as z.ZodMiniType<ItemOf<N>[]>;
    const fetch = async (path: string, page: number) => {
      const filters = query as Record<string, string | number | boolean | undefined>;
      const chatId = (params as { chat_id?: string }).chat_id;
      const call = {
        name,
        chatId,
        method: 'GET',
        path,
        query: { ...filters, page },
        schema,
        kind,
        options,
      } as const;
      const { data, meta, response } = await this.#transport.request(call);
      const load = async (next: number): Promise<Page<ItemOf<N>>> => (await fetch(path, next)).data;
      return { data: new Page(data, meta, load, page), response, requestId: meta.request_id };
    };
    return new PagePromise(async () => {
      const path = pathOf(name, params);
      if (querySchema) checkInput(querySchema, query);
      return fetch(path, (query as { page?: number }).page ?? 1);
    });
  }

  /** Endpoint `name`'s path with its ids checked, and its body checked: what a call or a stream sends. */
  prepare<N extends EndpointName>(
    name: N,
    params: ParamsOf<N>,
    body?: BodyOf<N>,
  ): { path: string; body: object | undefined } {
    const path = pathOf(name, params);
    const { body: schema }: Endpoint = ENDPOINTS[name];
    if (schema) checkInput(schema, body);
    return { path, body: body as object | undefined };
  }
}

/** The path of endpoint `name` with `params` in its placeholders, each id checked (`chat_id`: a UUID). */
function pathOf<N extends EndpointName>(name: N, params: ParamsOf<N>): string {
  const values = params as Readonly<Record<string, unknown>>;
  const ids: Readonly<Record<PathParamName, z.ZodMiniType>> = PATH_PARAMS;
  return ENDPOINTS[name].path.replace(/\{(\w+)\}/g, (_, param: PathParamName) =>
    String(checkInput(ids[param], values[param], param)),
  );
}

/** Base of the namespaces: a thin layer of one method per endpoint over the shared transport. */
export abstract class Resource {
  /** @internal */
  protected readonly transport: Transport;
  /** @internal The endpoint table, callable. */
  protected readonly api: Verbs;

  /** @internal */
  constructor(transport: Transport) {
    this.transport = transport;
    this.api = new Verbs(transport);
  }
}
