import { Client, type ClientOptions } from '../../src/index.js';
import type { FakeFetch } from './fake-fetch.js';

/** A client of `https://api.test` (token `t`) sending through a fake fetch; `options` add to or override that. */
export function fakeClient(fetch: FakeFetch, options: Partial<ClientOptions> = {}): Client {
  return new Client({ baseUrl: 'https://api.test', token: 't', fetch, ...options });
}
