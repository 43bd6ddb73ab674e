export { Client, type ClientOptions } from './client.js';
export type { Catalog } from './contract/catalog.js';
export type {
  Chat,
  ChatCreate,
  ChatDeleted,
  ChatListQuery,
  ChatUpdate,
  PermissionMode,
} from './contract/chat.js';
export { PERMISSION_MODES } from './contract/chat.js';
export type { ErrorData, ErrorDataByCode, KnownCode, MessageCode } from './contract/codes.js';
export { KNOWN_CODES } from './contract/codes.js';
export { elicitationIssues } from './contract/elicitation.js';
export type { ErrorDetails, Meta, RetryAction } from './contract/envelope.js';
export type { ActionRequiredPayload, EventName, TurnFailure } from './contract/events.js';
export { EVENT_NAMES } from './contract/events.js';
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
  RespondElicitationBody,
  RespondPlanBody,
  ToolApprovalPayload,
} from './contract/interactions.js';
export { ANSWER_ENDPOINTS, INTERACTION_KINDS } from './contract/interactions.js';
export type { PlainIssue } from './contract/issues.js';
export { LIMITS } from './contract/limits.js';
export type { PageQuery } from './contract/page.js';
/** The contract as zod/mini schemas: the same ones the client checks requests and responses with. */
export * from './contract/schemas.js';
export { SCOPES, type Scope } from './contract/scopes.js';
export type {
  Skill,
  SkillCreate,
  SkillDeleted,
  SkillLevel,
  SkillUpdate,
  SkillVisibility,
} from './contract/skill.js';
export { SKILL_LEVELS, SKILL_VISIBILITIES } from './contract/skill.js';
export { charCount } from './contract/text.js';
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
export { ATTACHMENT_SCOPES, TURN_STATUSES } from './contract/turn.js';
export {
  AbortError,
  ApiError,
  type ApiErrorInit,
  ConnectionError,
  ConvoError,
  ResponseValidationError,
  TimeoutError,
  ValidationError,
  type ValidationIssue,
} from './errors.js';
export { Page, PagePromise } from './http/page.js';
export type { RetryInfo } from './http/retry.js';
export type { Logger, RequestOptions } from './http/transport.js';
export type { ClassifiedPayload } from './interactions/classify.js';
export {
  type AnswerContext,
  type AnswerEndpoint,
  type AnswerSender,
  BaseInteraction,
  InteractionExpiredError,
} from './interactions/interaction.js';
export {
  AuthRequired,
  Elicitation,
  type Interaction,
  PlanApproval,
  ToolApproval,
  UnknownInteraction,
} from './interactions/kinds.js';
export type { RelayedInteraction } from './interactions/relayed.js';
export { Actions } from './resources/actions.js';
export { Chats } from './resources/chats.js';
export { Skills } from './resources/skills.js';
export { Turns } from './resources/turns.js';
export { UnreadableTerminalError } from './stream/errors.js';

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
export {
  RelayedTurnError,
  StreamInterruptedError,
  TurnError,
  TurnFailedError,
  type TurnLocation,
} from './turn/errors.js';
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
