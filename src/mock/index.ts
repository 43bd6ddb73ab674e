/**
 * `convo-sdk/mock`: the reference mock of the Conversational AI Service API v1, served three ways from one
 * handler: `createMock().fetch` injected into a client, `mswHandlers` (from `convo-sdk/msw`), and
 * `startMockServer()` / the `convo-mock` command over HTTP.
 */

export { MOCK_CODES, type MockCode } from '../contract/codes.js';
export type { MockClock } from './clock.js';
export {
  DEFAULT_CREDENTIAL,
  type MockAllowlist,
  type MockCredential,
  parseTokenFlag,
  SCOPES,
  type Scope,
} from './credentials.js';
export { directiveModel } from './directive-model.js';
export type {
  FaultAction,
  FaultResponse,
  FaultRoute,
  FaultTarget,
  MalformedKind,
  MockFault,
  MockFaults,
} from './faults.js';
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
export { createManualClock, type ManualClock } from './manual-clock.js';
export { type ConvoMock, createMock, MOCK_URL, type MockFetch, type MockOptions } from './mock.js';
export type {
  AnswerSource,
  FakeModel,
  InteractionAction,
  InteractionAnswer,
  ModelAction,
  ModelAttachments,
  ModelInput,
} from './model.js';
export type {
  ChatRecord,
  InteractionRecord,
  InteractionState,
  KeyRecord,
  TurnChannel,
  TurnError,
  TurnRecord,
} from './records.js';
export { MAX_TURN_ATTACHMENTS } from './send-input.js';
export { type MockServer, type MockServerOptions, startMockServer } from './server.js';
export type { CredentialRecord, MockSettings, MockStoreView, SkillRecord } from './store.js';
