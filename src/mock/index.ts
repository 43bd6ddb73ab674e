/**
 * `convo-sdk/mock`: the reference mock of the Conversational AI Service API v1, served three ways from one
 * handler: `createMock().fetch` injected into a client, `mswHandlers` (from `convo-sdk/msw`), and
 * `startMockServer()` / the `convo-mock` command over HTTP.
 *
 * Its rooms, from the ground up (an import only points to the same room or one below; all may use
 * `contract/`, nothing else of the SDK): `time/` (clocks), `wire/` (JSON bodies in, envelopes and
 * failures out), `state/` (fixtures, credentials, the store and who may see what), `model/` (the fake
 * model and its directives), `turns/` (the engine running turns, their interactions and outcomes),
 * `http/` (the service, its routes, faults and SSE), then `mock.ts` assembling one instance, and
 * `adapters/` (the HTTP server and the command) with the entries `cli.ts` and `msw.ts`.
 */

export { MOCK_CODES, type MockCode } from '../contract/codes.js';
export { type MockServer, type MockServerOptions, startMockServer } from './adapters/server.js';
export type {
  FaultAction,
  FaultResponse,
  FaultRoute,
  FaultTarget,
  MalformedKind,
  MockFault,
  MockFaults,
} from './http/faults.js';
export { MAX_TURN_ATTACHMENTS } from './http/send-input.js';
export { type ConvoMock, createMock, MOCK_URL, type MockFetch, type MockOptions } from './mock.js';
export { directiveModel } from './model/directive-model.js';
export { DIRECTIVE_LIMITS } from './model/directives.js';
export type {
  AnswerSource,
  FakeModel,
  InteractionAction,
  InteractionAnswer,
  ModelAction,
  ModelAttachments,
  ModelInput,
} from './model/model.js';
export {
  DEFAULT_CREDENTIAL,
  type MockAllowlist,
  type MockCredential,
  parseTokenFlag,
  SCOPES,
  type Scope,
} from './state/credentials.js';
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
} from './state/fixtures.js';
export type {
  ChatRecord,
  InteractionRecord,
  InteractionState,
  KeyRecord,
  TurnChannel,
  TurnErrorRecord,
  TurnRecord,
} from './state/records.js';
export type { CredentialRecord, MockSettings, MockStoreView, SkillRecord } from './state/store.js';
export type { MockClock } from './time/clock.js';
export { createManualClock, type ManualClock } from './time/manual-clock.js';
export { MAX_BODY_BYTES } from './wire/input.js';
export { type ErrorResponseOptions, errorResponse } from './wire/respond.js';
