/**
 * `convo-sdk/mock`: the reference mock of the Conversational AI Service API v1, served three ways from one
 * handler: `createMock().fetch` injected into a client, `mswHandlers` (from `convo-sdk/msw`), and
 * `startMockServer()` / the `convo-mock` command over HTTP.
 */
export {
  DEFAULT_CREDENTIAL,
  type MockAllowlist,
  type MockCredential,
  parseTokenFlag,
  SCOPES,
  type Scope,
} from './credentials.js';
export {
  FIXTURES,
  type MockCompany,
  type MockConnector,
  type MockFile,
  type MockFixtures,
  type MockLibrary,
  type MockModel,
  type MockTool,
  type MockUser,
} from './fixtures.js';
export { MAX_BODY_BYTES } from './input.js';
export { type ConvoMock, createMock, MOCK_URL, type MockFetch, type MockOptions } from './mock.js';
export { type MockServer, type MockServerOptions, startMockServer } from './server.js';
export type { CredentialRecord, MockClock, MockSettings, MockStoreView, SkillRecord } from './store.js';
