import * as z from 'zod/mini';
import { PERMISSION_MODES, type PermissionMode } from './chat.js';
import { intId, maxChars, maxJsonBytes, openEnum, timestamp, uuid } from './checks.js';
import { lazy } from './lazy.js';
import { LIMITS } from './limits.js';

/** The states of a turn (3.2). */
export const TURN_STATUSES = ['completed', 'cancelled', 'error', 'pending'] as const;
/** A turn's status: `completed`, `cancelled`, `error` or `pending`. */
export type TurnStatus = (typeof TURN_STATUSES)[number];

/** What a turn consumed; the same shape everywhere a turn appears (2.4). */
export interface Usage {
  /** Tokens of the prompt. */
  prompt_tokens: number;
  /** Tokens of the answer. */
  completion_tokens: number;
  /** Their sum. */
  total_tokens: number;
  /** Reasoning tokens, when the service counts them. */
  reasoning_tokens?: number | undefined;
  /** The model that answered. */
  model: string;
  /** Its provider. */
  provider: string;
}

/** Token usage (2.4). */
const usageSchema = lazy(() =>
  z.looseObject({
    prompt_tokens: z.int(),
    completion_tokens: z.int(),
    total_tokens: z.int(),
    reasoning_tokens: z.optional(z.int()),
    model: z.string(),
    provider: z.string(),
  }),
);
/** Token usage (`usageSchema`'s schema). */
export const UsageSchema = /* @__PURE__ */ usageSchema();

/** A tool the model called (or asks to call): its id, name, connector (`server`) and input. */
export interface ToolCall {
  /** The call's id; an approval decision names it. */
  tool_use_id: string;
  /** The tool's name. */
  name: string;
  /** The connector the tool belongs to. */
  server: string;
  /** The tool's input, as the model wrote it. */
  input: unknown;
}

/** A tool call (2.4, 2.6). */
export const toolCallSchema = lazy(() =>
  z.looseObject({
    tool_use_id: z.string(),
    name: z.string(),
    server: z.string(),
    input: z.unknown(),
  }),
);
/** A tool call (`toolCallSchema`'s schema). */
export const ToolCallSchema = /* @__PURE__ */ toolCallSchema();

/** A reasoning step or tool execution of a turn (2.4); the shape may grow (9). */
export interface Step {
  /** The step's key. */
  key: string;
  /** Its label. */
  label: string;
  /** A code for the label. */
  label_code: string;
  /** Its status. */
  status: string;
  /** When it happened (ISO 8601). */
  timestamp: string;
  /** How long it took. */
  duration?: number | undefined;
  /** Details; their type is not part of the contract. */
  detail?: unknown | undefined;
  /** Tokens; their type is not part of the contract. */
  tokens?: unknown | undefined;
  /** The tools the step ran. */
  tool_calls?: ToolCall[] | undefined;
}

/** A step of a turn. */
export const stepSchema = lazy(() =>
  z.looseObject({
    key: z.string(),
    label: z.string(),
    label_code: z.string(),
    status: z.string(),
    timestamp: timestamp(),
    duration: z.optional(z.int()),
    detail: z.optional(z.unknown()),
    tokens: z.optional(z.unknown()),
    tool_calls: z.optional(z.array(toolCallSchema())),
  }),
);
/** A step of a turn (`stepSchema`'s schema). */
export const StepSchema = /* @__PURE__ */ stepSchema();

/** A library chunk a turn used as context (2.4). */
export interface Source {
  /** The library. */
  workspace_id: number;
  /** The file. */
  file_id: number;
  /** How relevant the chunk was. */
  score: number;
}

/** A source of a turn. */
const sourceSchema = lazy(() =>
  z.looseObject({ workspace_id: intId(), file_id: intId(), score: z.number() }),
);
/** A source of a turn (`sourceSchema`'s schema). */
export const SourceSchema = /* @__PURE__ */ sourceSchema();

/**
 * A JSON object kept as it came: no copy, so keys such as `__proto__` in echoed metadata stay plain data
 * (a record schema would rebuild the object, and assigning `__proto__` would set its prototype instead).
 */
const jsonObject = lazy(() =>
  z.custom<Record<string, unknown>>(
    (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
    'must be an object',
  ),
);

/** The fields of a finished turn shared by the synchronous reply and the terminal events (2.4, 6). */
export const turnFields = lazy(() => ({
  id: intId(),
  chat_id: uuid(),
  role: openEnum<'assistant'>(),
  content: z.string(),
  usage: z.nullable(usageSchema()),
  steps: z.array(stepSchema()),
  sources: z.array(sourceSchema()),
  anonymization: z.nullable(jsonObject()),
  metadata: z.nullable(jsonObject()),
}));

/** One exchange of a chat: the model's answer and what it took (2.4). */
export interface Turn {
  /** The turn's id (the `message_id` of the stream). */
  id: number;
  /** The chat it belongs to. */
  chat_id: string;
  /** Always `assistant` in v1. */
  role: 'assistant' | (string & {});
  /** The model's answer. */
  content: string;
  /** `completed`, `cancelled`, `error` or `pending`; a newer service may add states. */
  status: TurnStatus | (string & {});
  /** What it consumed; null if nothing. */
  usage: Usage | null;
  /** Reasoning steps and tools executed. */
  steps: Step[];
  /** Library chunks used as context. */
  sources: Source[];
  /** Replacements applied by incognito mode, or null. */
  anonymization: Record<string, unknown> | null;
  /** The metadata sent with the turn, echoed verbatim, or null. */
  metadata: Record<string, unknown> | null;
}

/** A turn as the synchronous send returns it (2.4, without `prompt`). */
export const turnSchema = lazy(() => z.looseObject({ ...turnFields(), status: openEnum<TurnStatus>() }));
/** A turn as the synchronous send returns it (`turnSchema`'s schema). */
export const TurnSchema = /* @__PURE__ */ turnSchema();

/** A turn of the message listing: a turn with its `prompt` and `created_at` (4.2). */
export interface Message extends Turn {
  /** What was sent. */
  prompt: string;
  /** When (ISO 8601). */
  created_at: string;
}

/** A turn as the message listing returns it, with `prompt` and `created_at`. */
export const messageSchema = lazy(() =>
  z.looseObject({
    ...turnFields(),
    status: openEnum<TurnStatus>(),
    prompt: z.string(),
    created_at: timestamp(),
  }),
);
/** A turn as the message listing returns it (`messageSchema`'s schema). */
export const MessageSchema = /* @__PURE__ */ messageSchema();

/** Libraries, files, skills and connectors attached to a turn; each kind needs an extra scope (4.3). */
export interface Attachments {
  /** Libraries (`libraries:read`). */
  workspace_ids?: number[] | undefined;
  /** Files (`libraries:read`). */
  file_ids?: number[] | undefined;
  /** Skills (`skills:read`). */
  skill_ids?: number[] | undefined;
  /** Connectors (`connectors:use`). */
  mcp_server_ids?: number[] | undefined;
}

/** Resources attached to a turn (4.3); an unknown field is refused. */
const attachmentsSchema = lazy(() =>
  z.strictObject({
    workspace_ids: z.optional(z.array(intId())),
    file_ids: z.optional(z.array(intId())),
    skill_ids: z.optional(z.array(intId())),
    mcp_server_ids: z.optional(z.array(intId())),
  }),
);
/** Resources attached to a turn (`attachmentsSchema`'s schema). */
export const AttachmentsSchema = /* @__PURE__ */ attachmentsSchema();

/** The scope each attachment kind needs (4.3). */
export const ATTACHMENT_SCOPES = {
  workspace_ids: 'libraries:read',
  file_ids: 'libraries:read',
  skill_ids: 'skills:read',
  mcp_server_ids: 'connectors:use',
} as const;

const sendFields = lazy(() => ({
  content: maxChars(LIMITS.turnContent),
  model_id: z.optional(intId()),
  attachments: z.optional(attachmentsSchema()),
  metadata: z.optional(maxJsonBytes(LIMITS.turnMetadataBytes)),
}));

/** What a synchronous turn sends (4.3). */
export interface TurnSend {
  /** The message, up to 64,000 characters. */
  content: string;
  /** The model; default the chat's, else the company's. */
  model_id?: number | undefined;
  /** Only `auto` on this channel (the default here). */
  permission_mode?: 'auto' | undefined;
  /** Libraries, files, skills and connectors to use. */
  attachments?: Attachments | undefined;
  /** Echoed verbatim on the turn, never sent to the model; up to 2048 bytes as JSON. */
  metadata?: Record<string, unknown> | undefined;
}

/** Body of the synchronous send (4.3): only `permission_mode: auto`; an unknown field is refused. */
export const turnSendSchema = lazy(() =>
  z.strictObject({
    ...sendFields(),
    permission_mode: z.optional(z.literal('auto')),
  }),
);
/** Body of the synchronous send (`turnSendSchema`'s schema). */
export const TurnSendSchema = /* @__PURE__ */ turnSendSchema();

/** What a streamed turn sends (4.4). */
export interface TurnStreamBody {
  /** The message, up to 64,000 characters. */
  content: string;
  /** The model; default the chat's, else the company's. */
  model_id?: number | undefined;
  /** `manual` (default: the turn asks before running tools) or `auto`. */
  permission_mode?: PermissionMode | undefined;
  /** Libraries, files, skills and connectors to use. */
  attachments?: Attachments | undefined;
  /** Echoed verbatim on the turn, never sent to the model; up to 2048 bytes as JSON. */
  metadata?: Record<string, unknown> | undefined;
}

/** Body of the streaming send (4.4): `manual` (default) or `auto`; an unknown field is refused. */
export const turnStreamBodySchema = lazy(() =>
  z.strictObject({
    ...sendFields(),
    permission_mode: z.optional(z.enum(PERMISSION_MODES)),
  }),
);
/** Body of the streaming send (`turnStreamBodySchema`'s schema). */
export const TurnStreamBodySchema = /* @__PURE__ */ turnStreamBodySchema();
