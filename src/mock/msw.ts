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
  /** The origin the client calls; `http://convo.mock` by default. A trailing slash is ignored. */
  baseUrl?: string;
}

/** msw handlers passing every request under `baseUrl` to `mock.handle`. */
export function mswHandlers(mock: ConvoMock, { baseUrl = mock.url }: MswHandlersOptions = {}): HttpHandler[] {
  const origin = baseUrl.replace(/\/+$/, '');
  return [
    http.all(`${origin}/*`, async ({ request }) => {
      const response = await mock.handle(request);
      return isEventStream(response) ? chunkedEventStream(response) : response;
    }),
  ];
}
