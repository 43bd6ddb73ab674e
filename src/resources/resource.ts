import type * as z from 'zod/mini';
import type { PageQuery } from '../contract/page.js';
import { ApiPromise } from '../http/api-promise.js';
import { Page, PagePromise } from '../http/page.js';
import type { OperationKind } from '../http/policy.js';
import type { Call, RequestOptions, Result, Transport } from '../http/transport.js';
import { checkInput } from '../http/validate.js';

/**
 * @internal A path below `/api/v1/`: a function when it holds an id, so that the id's check runs inside the
 * call and rejects it rather than throwing synchronously.
 */
export type Path = string | (() => string);

/** @internal What a call sends (a body, or a list's query) with the schema it is checked against first. */
export type Input<T = unknown> = readonly [schema: z.ZodMiniType<unknown>, value: T];

/** @internal A list's query: its page and the endpoint's filters. */
type ListQuery = PageQuery & Record<string, string | number | boolean | undefined>;

/**
 * @internal The verbs every endpoint method is written in, one line each: `(path, schema of data, policy
 * kind, options, input?)`. Nothing is sent before the path's ids and the input pass their checks; a failed
 * check is a `ValidationError` naming the field, which rejects the call (or fails a list's first read).
 */
export class Verbs {
  readonly #transport: Transport;

  constructor(transport: Transport) {
    this.#transport = transport;
  }

  /** A GET of one resource. */
  get<T>(path: Path, schema: z.ZodMiniType<T>, kind: OperationKind, options?: RequestOptions): ApiPromise<T> {
    return this.#call('GET', path, schema, kind, options);
  }

  /** A POST, its body checked against `input`'s schema. */
  post<T>(
    path: Path,
    schema: z.ZodMiniType<T>,
    kind: OperationKind,
    options: RequestOptions | undefined,
    input?: Input,
  ): ApiPromise<T> {
    return this.#call('POST', path, schema, kind, options, input);
  }

  /** A PATCH, its body (if any) checked against `input`'s schema. */
  patch<T>(
    path: Path,
    schema: z.ZodMiniType<T>,
    kind: OperationKind,
    options: RequestOptions | undefined,
    input?: Input,
  ): ApiPromise<T> {
    return this.#call('PATCH', path, schema, kind, options, input);
  }

  /** A DELETE. */
  delete<T>(
    path: Path,
    schema: z.ZodMiniType<T>,
    kind: OperationKind,
    options?: RequestOptions,
  ): ApiPromise<T> {
    return this.#call('DELETE', path, schema, kind, options);
  }

  /**
   * A paginated GET, paged lazily: `items` is the schema of one page's `data`, `input` the query and its
   * schema. The path and the query are checked once, when the first page is asked for; later pages reuse
   * them with another page number.
   */
  list<T>(
    path: Path,
    items: z.ZodMiniType<T[]>,
    kind: OperationKind,
    options: RequestOptions | undefined,
    [querySchema, query]: Input<ListQuery>,
  ): PagePromise<T> {
    const fetch = async (target: string, page: number) => {
      const { data, meta, response } = await this.#transport.request({
        method: 'GET',
        path: target,
        query: { ...query, page },
        schema: items,
        kind,
        options,
      });
      const load = async (next: number): Promise<Page<T>> => (await fetch(target, next)).data;
      return { data: new Page(data, meta, load, page), response, requestId: meta.request_id };
    };
    return new PagePromise(async () => {
      const target = typeof path === 'string' ? path : path();
      checkInput(querySchema, query);
      return fetch(target, query.page ?? 1);
    });
  }

  /** Runs `send` (checks, then one call) as an `ApiPromise`: a check that throws rejects it. */
  call<T>(send: () => Promise<Result<T>>): ApiPromise<T> {
    return new ApiPromise(send());
  }

  #call<T>(
    method: Call<T>['method'],
    path: Path,
    schema: z.ZodMiniType<T>,
    kind: OperationKind,
    options: RequestOptions | undefined,
    input?: Input,
  ): ApiPromise<T> {
    return this.call(async () => {
      const target = typeof path === 'string' ? path : path();
      if (input) checkInput(input[0], input[1]);
      return this.#transport.request({ method, path: target, body: input?.[1], schema, kind, options });
    });
  }
}

/** Base of the namespaces: a thin layer of one method per endpoint over the shared transport. */
export abstract class Resource {
  /** @internal */
  protected readonly transport: Transport;
  /** @internal The verbs the endpoint methods are written in. */
  protected readonly api: Verbs;

  /** @internal */
  constructor(transport: Transport) {
    this.transport = transport;
    this.api = new Verbs(transport);
  }
}
