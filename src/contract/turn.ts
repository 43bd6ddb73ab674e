import * as z from 'zod/mini';
import { PERMISSION_MODES } from './chat.js';
import { IntId, maxChars, maxJsonBytes, Timestamp, Uuid } from './checks.js';
import { LIMITS } from './limits.js';

/** The states of a turn (3.2). */
export const TURN_STATUSES = ['completed', 'cancelled', 'error', 'pending'] as const;
/** A turn's status. */
export type TurnStatus = (typeof TURN_STATUSES)[number];

/** Token usage; the same shape everywhere a turn appears (2.4). */
export const UsageSchema = z.looseObject({
  prompt_tokens: z.int(),
  completion_tokens: z.int(),
  total_tokens: z.int(),
  reasoning_tokens: z.optional(z.int()),
  model: z.string(),
  provider: z.string(),
});
/** What a turn consumed. */
export type Usage = z.infer<typeof UsageSchema>;

/** A tool the model called (or asks to call). */
export const ToolCallSchema = z.looseObject({
  tool_use_id: z.string(),
  name: z.string(),
  server: z.string(),
  input: z.unknown(),
});
/** A tool call: its id, name, connector (`server`) and input. */
export type ToolCall = z.infer<typeof ToolCallSchema>;

/** A reasoning step or tool execution; the shape may grow (9). */
export const StepSchema = z.looseObject({
  key: z.string(),
  label: z.string(),
  label_code: z.string(),
  status: z.string(),
  timestamp: Timestamp,
  duration: z.optional(z.int()),
  detail: z.optional(z.unknown()),
  tokens: z.optional(z.unknown()),
  tool_calls: z.optional(z.array(ToolCallSchema)),
});
/** A step of a turn. */
export type Step = z.infer<typeof StepSchema>;

/** A library chunk used as context. */
export const SourceSchema = z.looseObject({ workspace_id: IntId, file_id: IntId, score: z.number() });
/** A source of a turn. */
export type Source = z.infer<typeof SourceSchema>;

/**
 * A JSON object kept as it came: no copy, so keys such as `__proto__` in echoed metadata stay plain data
 * (a record schema would rebuild the object, and assigning `__proto__` would set its prototype instead).
 */
const JsonObject = z.custom<Record<string, unknown>>(
  (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
  'must be an object',
);

/** The fields of a finished turn shared by the synchronous reply and the terminal events (2.4, 6). */
export const turnFields = {
  id: IntId,
  chat_id: Uuid,
  role: z.literal('assistant'),
  content: z.string(),
  usage: z.nullable(UsageSchema),
  steps: z.array(StepSchema),
  sources: z.array(SourceSchema),
  anonymization: z.nullable(JsonObject),
  metadata: z.nullable(JsonObject),
};

/** A turn as the synchronous send returns it (2.4, without `prompt`). */
export const TurnSchema = z.looseObject({ ...turnFields, status: z.enum(TURN_STATUSES) });
/** One exchange of a chat: the model's answer and what it took. */
export type Turn = z.infer<typeof TurnSchema>;

/** A turn as the message listing returns it, with `prompt` and `created_at`. */
export const MessageSchema = z.looseObject({
  ...turnFields,
  status: z.enum(TURN_STATUSES),
  prompt: z.string(),
  created_at: Timestamp,
});
/** A turn of the message listing. */
export type Message = z.infer<typeof MessageSchema>;

/** Resources attached to a turn; each kind needs an extra scope (4.3). */
export const AttachmentsSchema = z.looseObject({
  workspace_ids: z.optional(z.array(IntId)),
  file_ids: z.optional(z.array(IntId)),
  skill_ids: z.optional(z.array(IntId)),
  mcp_server_ids: z.optional(z.array(IntId)),
});
/** Libraries, files, skills and connectors attached to a turn. */
export type Attachments = z.input<typeof AttachmentsSchema>;

/** The scope each attachment kind needs (4.3). */
export const ATTACHMENT_SCOPES = {
  workspace_ids: 'libraries:read',
  file_ids: 'libraries:read',
  skill_ids: 'skills:read',
  mcp_server_ids: 'connectors:use',
} as const;

const sendFields = {
  content: maxChars(LIMITS.turnContent),
  model_id: z.optional(IntId),
  attachments: z.optional(AttachmentsSchema),
  metadata: z.optional(maxJsonBytes(LIMITS.turnMetadataBytes)),
};

/** Body of the synchronous send (4.3): only `permission_mode: auto` is accepted there. */
export const TurnSendSchema = z.looseObject({
  ...sendFields,
  permission_mode: z.optional(z.literal('auto')),
});
/** What a synchronous turn sends. */
export type TurnSend = z.input<typeof TurnSendSchema>;

/** Body of the streaming send (4.4): `manual` (default) or `auto`. */
export const TurnStreamBodySchema = z.looseObject({
  ...sendFields,
  permission_mode: z.optional(z.enum(PERMISSION_MODES)),
});
/** What a streamed turn sends. */
export type TurnStreamBody = z.input<typeof TurnStreamBodySchema>;
