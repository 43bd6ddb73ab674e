// Every schema of the contract, for integrators who validate their own data the way the SDK does.
export { CatalogSchema } from './catalog.js';
export {
  ChatCreateSchema,
  ChatDeletedSchema,
  ChatListQuerySchema,
  ChatSchema,
  ChatUpdateSchema,
} from './chat.js';
export { EnvelopeSchema, ErrorBodySchema, ErrorDetailsSchema, MetaSchema } from './envelope.js';
export { ERROR_DATA_SCHEMAS } from './error-data.js';
export {
  ActionRequiredPayloadSchema,
  DeltaPayloadSchema,
  ErrorPayloadSchema,
  EVENT_SCHEMAS,
  EVENTS,
  type EventRow,
  FinishedPayloadSchema,
  PingPayloadSchema,
  StartPayloadSchema,
  StepPayloadSchema,
} from './events.js';
export {
  ActionResultSchema,
  ApproveToolSchema,
  CancelAuthSchema,
  CancelResultSchema,
  CancelSchema,
  ElicitationPayloadSchema,
  PlanApprovalPayloadSchema,
  PlanStepSchema,
  RespondElicitationSchema,
  RespondPlanSchema,
  ToolApprovalPayloadSchema,
} from './interactions.js';
export { PageQuerySchema } from './page.js';
export { SkillCreateSchema, SkillDeletedSchema, SkillSchema, SkillUpdateSchema } from './skill.js';
export {
  AttachmentsSchema,
  MessageSchema,
  SourceSchema,
  StepSchema,
  ToolCallSchema,
  TurnSchema,
  TurnSendSchema,
  TurnStreamBodySchema,
  UsageSchema,
} from './turn.js';
