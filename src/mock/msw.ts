/**
 * `convo-sdk/msw`: the mock as msw request handlers, for tests that already intercept fetch with msw:
 * `setupServer(...mswHandlers(createMock()))`, then point the client at `http://convo.mock`. Works with
 * msw 2 (from 2.0.0) and msw 3: it uses only `http.all` and plain `Response`s, the same in both.
 * `errorResponse` builds the contract's error response for a handler of one's own.
 */
import { type HttpHandler, http } from 'msw';
import { chunkedEventStream, isEventStream } from './http/sse.js';
import type { ConvoMock } from './mock.js';

export { type ErrorResponseOptions, errorResponse } from './wire/respond.js';

/** Options of `mswHandlers`. */
export interface MswHandlersOptions {
  /**
   * The base URL the client is given: its origin and any path prefix before `/api/v1`
   * (`https://gateway.test/convo`); `http://convo.mock` by default. A trailing slash is ignored.
   */
  baseUrl?: string;
}

/**
 * msw handlers passing every request under `baseUrl` to `mock.handle`, the base URL's path prefix taken
 * off, so that `/convo/api/v1/skills` under `https://gateway.test/convo` is the mock's `/api/v1/skills`.
 */
export function mswHandlers(mock: ConvoMock, { baseUrl = mock.url }: MswHandlersOptions = {}): HttpHandler[] {
  const base = baseUrl.replace(/\/+$/, '');
  const prefix = new URL(base).pathname.replace(/\/+$/, '');
  return [
    http.all(`${base}/*`, async ({ request }) => {
      const response = await mock.handle(prefix ? unprefixed(request, prefix) : request);
      return isEventStream(response) ? chunkedEventStream(response) : response;
    }),
  ];
}

/** `request` at its path without `prefix`, everything else (method, headers, body, signal) as it was. */
function unprefixed(request: Request, prefix: string): Request {
  const url = new URL(request.url);
  url.pathname = url.pathname.slice(prefix.length);
  return new Request(url, request);
}
