/**
 * `convo-sdk`: the client, its option and result types, the error classes, the stream, interaction and page
 * types, and the helpers the guides use. The contract as data (zod schemas, enumerations, `LIMITS`) lives in
 * `convo-sdk/schemas`; the mock in `convo-sdk/mock` and `convo-sdk/msw`. api/convo-sdk.api.md records what
 * this exports.
 *
 * @module
 */
export { Client, type ClientOptions } from './client.js';
export type { Catalog, CatalogConnector, CatalogEntry, CatalogModel } from './contract/catalog.js';
export type {
  Chat,
  ChatCreate,
  ChatDeleted,
  ChatListQuery,
  ChatUpdate,
  PermissionMode,
} from './contract/chat.js';
export type { ErrorData, ErrorDataByCode, KnownCode, MessageCode } from './contract/codes.js';
export { type ElicitationValidator, jsonSchemaValidator } from './contract/elicitation.js';
export type { ErrorDetails, RetryAction } from './contract/envelope.js';
export type {
  ActionRequiredPayload,
  EventName,
  EventPayloads,
  TerminalEventName,
  TurnFailure,
} from './contract/events.js';
export type {
  ActionResult,
  ApproveToolBody,
  CancelAuthBody,
  CancelBody,
  CancelResult,
  ElicitationPayload,
  FlatValue,
  InteractionKind,
  PlanApprovalPayload,
  PlanStep,
  RespondElicitationBody,
  RespondPlanBody,
  ToolApprovalPayload,
} from './contract/interactions.js';
export type { PlainIssue } from './contract/issues.js';
export type { PageQuery } from './contract/page.js';
export type { Scope } from './contract/scopes.js';
export type {
  Skill,
  SkillCreate,
  SkillDeleted,
  SkillLevel,
  SkillUpdate,
  SkillVisibility,
} from './contract/skill.js';
export type {
  Attachments,
  Message,
  Source,
  Step,
  ToolCall,
  Turn,
  TurnSend,
  TurnStatus,
  TurnStreamBody,
  Usage,
} from './contract/turn.js';
export {
  AbortError,
  AnswerOutcomeUnknownError,
  ApiError,
  type ApiErrorInit,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  ConnectionError,
  ConvoError,
  HookError,
  type HookName,
  InteractionExpiredError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  RedirectError,
  RedisUnavailableError,
  RelayedTurnError,
  ResponseTooLargeError,
  ResponseValidationError,
  RouteCapacityError,
  StreamInterruptedError,
  TimeoutError,
  TurnError,
  TurnFailedError,
  type TurnLocation,
  TurnTooLargeError,
  UnprocessableEntityError,
  UnreadableTerminalError,
  ValidationError,
  type ValidationIssue,
} from './errors/index.js';
export { ApiPromise, type WithResponse } from './http/api-promise.js';
export { consoleLogger, type LogLevel } from './http/console-logger.js';
export type {
  AfterResponseHook,
  BeforeErrorHook,
  BeforeRequestHook,
  BeforeRetryHook,
  Hooks,
} from './http/hooks.js';
export { Page, PagePromise } from './http/page.js';
export type { RetryInfo } from './http/policy-run.js';
export type { Logger, RequestOptions } from './http/transport.js';
export type { ClassifiedPayload } from './interactions/classify.js';
export {
  AuthRequired,
  Elicitation,
  type Interaction,
  PlanApproval,
  ToolApproval,
  UnknownInteraction,
} from './interactions/kinds.js';
export type { RelayedInteraction } from './interactions/relayed.js';
// The resources and the streams' base are named by public signatures (`client.chats`, `extends`): the
// declarations need them exported, and an export of a class is a value.
export { Actions } from './resources/actions.js';
export { Chats } from './resources/chats.js';
export { Skills } from './resources/skills.js';
export { Turns } from './resources/turns.js';
export type {
  ActionRequiredEventOf,
  CancelledEvent,
  CompletedEvent,
  DeltaEvent,
  ErrorEvent,
  OffSchemaEvent,
  PingEvent,
  ResumedEvent,
  StartEvent,
  StepEvent,
  StreamEvent,
  TerminalEvent,
  UnknownEvent,
} from './stream/events.js';
export { isTerminal } from './stream/events.js';
export type { Relayable } from './stream/relay.js';
export type { TelemetryOptions } from './telemetry/options.js';
export { EventStream, type StreamListeners } from './turn/event-stream.js';
export type { StreamOptions, TurnOptions } from './turn/open.js';
export { type RelayedStreamEvent, RelayedTurnStream, type RelayReadOptions } from './turn/relayed-stream.js';
export type {
  ElicitationDecision,
  MaybePromise,
  PlanDecision,
  RunHandlers,
  ToolDecision,
} from './turn/run.js';
export type { SentTurn } from './turn/send.js';
export {
  type ActionRequiredEvent,
  TurnStream,
  type TurnStreamEvent,
  type TurnStreamListeners,
} from './turn/turn-stream.js';
