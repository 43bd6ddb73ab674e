import type { Chat } from '../../contract/chat.js';
import type { Message, Turn } from '../../contract/turn.js';
import type { ChatRecord, TurnRecord } from './records.js';

/**
 * The public shapes of stored records: what the API shows of them, in the contract's field order, and
 * nothing the mock keeps to itself (owner, key, channel, ...).
 */

/** A chat as 2.3 shows it. */
export function publicChat(chat: ChatRecord): Chat {
  return {
    id: chat.id,
    name: chat.name,
    is_favorite: chat.is_favorite,
    permission_mode: chat.permission_mode,
    model_id: chat.model_id,
    created_at: chat.created_at,
    updated_at: chat.updated_at,
  };
}

/** The turn fields of `message.completed` and `message.cancelled` (section 6). */
export function turnFields(turn: TurnRecord) {
  return {
    id: turn.id,
    chat_id: turn.chat_id,
    role: turn.role,
    content: turn.content,
    usage: turn.usage && { ...turn.usage },
    steps: structuredClone(turn.steps),
    sources: structuredClone(turn.sources),
    anonymization: turn.anonymization,
    metadata: turn.metadata && structuredClone(turn.metadata),
  };
}

/** A turn as the synchronous send returns it (2.4, without `prompt`). */
export function publicTurn(turn: TurnRecord): Turn {
  return { ...turnFields(turn), status: turn.status };
}

/** A turn as the message listing shows it, with `prompt` and `created_at`. */
export function publicMessage(turn: TurnRecord): Message {
  return { ...publicTurn(turn), prompt: turn.prompt, created_at: turn.created_at };
}
