import type { Result } from './transport.js';

/** A result with the raw HTTP response it came in and the service's request id. */
export interface WithResponse<T> {
  /** What awaiting the call gives. */
  data: T;
  /** The raw response (status, headers); its body is already read. */
  response: Response;
  /** `meta.request_id` of the response: quote it when reporting a problem. */
  requestId: string | undefined;
}

/**
 * What a call returns: await it for its result, call `.withResponse()` for the result with the raw
 * `Response` and the request id, or `.asResponse()` for the `Response` alone. The request is sent at once,
 * as with a plain promise.
 */
export class ApiPromise<T> implements Promise<T> {
  /** Tag shown by `Object.prototype.toString`. */
  readonly [Symbol.toStringTag] = 'ApiPromise';
  readonly #result: Promise<Result<T>>;
  #data: Promise<T> | undefined;

  /** @internal */
  constructor(result: Promise<Result<T>>) {
    this.#result = result;
  }

  /** The result with the raw response and the request id. */
  withResponse(): Promise<WithResponse<T>> {
    return this.#result.then(({ data, response, meta }) => ({ data, response, requestId: meta.request_id }));
  }

  /**
   * The raw `Response` of the exchange that gave the result: its status, headers and URL. Its body is
   * already consumed (read and checked against the contract): the data is what awaiting the call gives.
   * A failed call rejects with its error, which carries the status and `headers` itself.
   */
  asResponse(): Promise<Response> {
    return this.#result.then(({ response }) => response);
  }

  #value(): Promise<T> {
    this.#data ??= this.#result.then((result) => result.data);
    return this.#data;
  }

  // biome-ignore lint/suspicious/noThenProperty: an ApiPromise is awaited like a promise on purpose.
  then<A = T, B = never>(
    onFulfilled?: ((value: T) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.#value().then(onFulfilled, onRejected);
  }

  /** Like `Promise.prototype.catch`. */
  catch<B = never>(onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<T | B> {
    return this.#value().catch(onRejected);
  }

  /** Like `Promise.prototype.finally`. */
  finally(onFinally?: (() => void) | null): Promise<T> {
    return this.#value().finally(onFinally);
  }
}
