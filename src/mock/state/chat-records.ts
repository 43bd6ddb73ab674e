/** Finding, creating and changing chats: the rules every chat route and both sends share. */
import { ChatIdSchema, type ChatUpdate, type PermissionMode } from '../../contract/chat.js';
import { notFound } from '../wire/respond.js';
import { canSeeChat } from './access.js';
import type { ChatRecord } from './records.js';
import type { CredentialRecord, MockStore } from './store.js';

/** A `chat_id` path parameter as stored (lowercase), or undefined when it is not a UUID. */
export function parseChatId(raw: string): string | undefined {
  return ChatIdSchema.safeParse(raw).success ? raw.toLowerCase() : undefined;
}

/**
 * The chat `raw` names if `credential` sees it; 404 `api_v1_not_found` otherwise, with the same body
 * whether it is missing, deleted, malformed or another credential's (7.1).
 */
export function visibleChat(store: MockStore, credential: CredentialRecord, raw: string): ChatRecord {
  const id = parseChatId(raw);
  const chat = id === undefined ? undefined : store.chatsById.get(id);
  if (!chat || !canSeeChat(credential, chat)) throw notFound('Chat');
  return chat;
}

/**
 * For a send (3.4): the chat `raw` names when `credential` sees it, or no chat when the id is free (the
 * send creates it). 404 when `raw` is not a UUID, or names a chat that is deleted or another credential's.
 */
export function visibleChatOrNew(
  store: MockStore,
  credential: CredentialRecord,
  raw: string,
): { chatId: string; chat: ChatRecord | undefined } {
  const chatId = parseChatId(raw);
  if (chatId === undefined) throw notFound('Chat');
  const chat = store.chatsById.get(chatId);
  if (chat && !canSeeChat(credential, chat)) throw notFound('Chat');
  return { chatId, chat };
}

/** What a new chat starts with; the defaults of 4.2 for what is absent. */
export interface NewChat {
  /** Its id; a new UUID when absent. */
  id?: string | undefined;
  /** Title. */
  name?: string | undefined;
  /** Default model. */
  model_id?: number | undefined;
  /** `manual` when absent. */
  permission_mode?: PermissionMode | undefined;
}

/** Stores a new chat owned by `credential`. */
export function createChat(store: MockStore, credential: CredentialRecord, fields: NewChat): ChatRecord {
  const now = store.timestamp();
  const chat: ChatRecord = {
    id: fields.id ?? crypto.randomUUID(),
    name: fields.name ?? null,
    is_favorite: false,
    permission_mode: fields.permission_mode ?? 'manual',
    model_id: fields.model_id ?? null,
    created_at: now,
    updated_at: now,
    deleted_at: null,
    owner_credential_id: credential.id,
    seq: store.nextId('chat'),
  };
  store.addChat(chat);
  return chat;
}

/** Applies a checked update (4.2): the fields given, and `updated_at`. */
export function updateChat(store: MockStore, chat: ChatRecord, input: ChatUpdate): void {
  if (input.name !== undefined) chat.name = input.name;
  if (input.is_favorite !== undefined) chat.is_favorite = input.is_favorite;
  chat.updated_at = store.timestamp();
}

/** Marks the chat changed at `at` (a turn started or ended in it), or now. */
export function touchChat(store: MockStore, chat: ChatRecord, at = store.timestamp()): void {
  chat.updated_at = at;
}

/** Soft-deletes the chat: every lookup treats it as absent from now on. */
export function deleteChat(store: MockStore, chat: ChatRecord): void {
  chat.deleted_at = store.timestamp();
}
