import type { PermissionMode } from '../../contract/chat.js';
import type { ErrorDetails } from '../../contract/envelope.js';
import type { InteractionKind } from '../../contract/interactions.js';
import type { Source, Step, TurnStatus, Usage } from '../../contract/turn.js';

/** A chat as stored: the fields of 2.3 plus what the mock keeps to itself. */
export interface ChatRecord {
  /** Identifier, a lowercase UUID. */
  id: string;
  /** Title, null when unnamed. */
  name: string | null;
  /** Favorite flag. */
  is_favorite: boolean;
  /** Permission mode given at creation (informational: turns carry their own). */
  permission_mode: PermissionMode;
  /** Default model of the chat, null for the company's. */
  model_id: number | null;
  /** Creation time, ISO 8601 UTC. */
  created_at: string;
  /** Last activity (an update or a turn), ISO 8601 UTC. */
  updated_at: string;
  /** Soft-delete time, null while alive. */
  deleted_at: string | null;
  /** The credential that created it: chats are per credential (section 1). */
  owner_credential_id: number;
  /** Insertion order, the tie-breaker of the newest-first listing. */
  seq: number;
}

/** Why a turn failed: the payload of `message.error`, kept for replays. */
export interface TurnErrorRecord {
  /** The turn's code (section 6). */
  code: string;
  /** Text. */
  message: string;
  /** Whether another operation with a new key may work. */
  retryable: boolean;
  /** Outage details, for outage codes only. */
  details?: ErrorDetails;
}

/** The channel a turn was sent on. */
export type TurnChannel = 'sync' | 'stream';

/** A turn as stored: the fields of 2.4 plus what the mock keeps to itself. */
export interface TurnRecord {
  /** Identifier, from the global turn counter (the stream's `message_id`). */
  id: number;
  /** Owning chat. */
  chat_id: string;
  /** Always `assistant`. */
  role: 'assistant';
  /** The answer so far; the whole answer once finished. */
  content: string;
  /** What was sent. */
  prompt: string;
  /** `pending` while it runs. */
  status: TurnStatus;
  /** Null when no text was produced. */
  usage: Usage | null;
  /** Reasoning and tool steps. */
  steps: Step[];
  /** Files of the attached libraries and the attached files. */
  sources: Source[];
  /** Always null in the mock (incognito mode is not simulated). */
  anonymization: null;
  /** The integrator's metadata, verbatim. */
  metadata: Record<string, unknown> | null;
  /** Creation time, ISO 8601 UTC. */
  created_at: string;
  /** Why it failed, when `status` is `error`. */
  error: TurnErrorRecord | null;
  /** The credential that sent it. */
  credential_id: number;
  /** The `Idempotency-Key` it was sent with. */
  key: string;
  /** Channel it was sent on. */
  channel: TurnChannel;
  /** Permission mode of the turn. */
  permission_mode: PermissionMode;
  /** The model that answered. */
  model_id: number;
  /** `request_id` of the request that started it. */
  request_id: string;
}

/** The states of an interaction (3.3); `expired` and `closed` are the mock's names for the other ends. */
export type InteractionState = 'pending' | 'resolved' | 'expired' | 'closed';

/** A pause of a running turn awaiting an answer (2.6). */
export interface InteractionRecord {
  /** Opaque, unguessable id (`act_` + 32 hex digits). */
  action_id: string;
  /** Kind. */
  kind: InteractionKind;
  /** Payload, as sent in `message.action_required`. */
  payload: Record<string, unknown>;
  /** `connect_in_ui_or_cancel` for `auth_required`. */
  resolution?: string;
  /** The turn it pauses. */
  turn_id: number;
  /** That turn's chat. */
  chat_id: string;
  /** The credential that may answer it. */
  credential_id: number;
  /** When it was raised, ISO 8601 UTC. */
  created_at: string;
  /** When it expires, in ms since the epoch. */
  expires_at_ms: number;
  /** Where it stands. */
  state: InteractionState;
  /** The answer handed to the model, once there is one. */
  answer: unknown;
}

/** What an `Idempotency-Key` is bound to, per credential. */
export interface KeyRecord {
  /** The credential that used it. */
  credential_id: number;
  /** The key. */
  key: string;
  /** Canonical JSON of the chat id and the body: what "same body" compares. */
  fingerprint: string;
  /** The turn it started. */
  turn_id: number;
}
