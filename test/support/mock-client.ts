import { Client, type ClientOptions } from '../../src/index.js';
import { type ConvoMock, createMock, DEFAULT_CREDENTIAL, type MockOptions } from '../../src/mock/index.js';

/**
 * An in-process mock and a client reaching it through the mock's fetch, as the first configured credential
 * (the conventions' `mock-token` unless `options.tokens` says otherwise); `client` options override.
 */
export function mockClient(
  options: MockOptions = {},
  client: Partial<ClientOptions> = {},
): { mock: ConvoMock; client: Client } {
  const mock = createMock(options);
  const token = options.tokens?.[0]?.token ?? DEFAULT_CREDENTIAL.token;
  return { mock, client: new Client({ baseUrl: mock.url, token, fetch: mock.fetch, ...client }) };
}
