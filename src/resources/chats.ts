import * as z from 'zod/mini';
import { type Catalog, CatalogSchema } from '../contract/catalog.js';
import {
  type Chat,
  type ChatCreate,
  ChatCreateSchema,
  type ChatDeleted,
  ChatDeletedSchema,
  ChatIdSchema,
  type ChatListQuery,
  ChatListQuerySchema,
  ChatSchema,
  type ChatUpdate,
  ChatUpdateSchema,
} from '../contract/chat.js';
import { type PageQuery, PageQuerySchema } from '../contract/page.js';
import { type Message, MessageSchema } from '../contract/turn.js';
import type { ApiPromise } from '../http/api-promise.js';
import type { PagePromise } from '../http/page.js';
import type { RequestOptions } from '../http/transport.js';
import { checkInput } from '../http/validate.js';
import { Resource } from './resource.js';

const ChatListSchema = z.array(ChatSchema);
/** @internal `data` of a page of the chat's messages. */
export const MessageListSchema = z.array(MessageSchema);

/** `client.chats`: the credential's conversations, their messages, and the catalog (4.2). */
export class Chats extends Resource {
  /** The credential's chats, newest first; `is_favorite` filters. `for await` over it to read every one. */
  list(query: ChatListQuery = {}, options?: RequestOptions): PagePromise<Chat> {
    return this.api.list('chats', ChatListSchema, 'repeatable', options, [ChatListQuerySchema, query]);
  }

  /** Creates an empty chat. */
  create(body: ChatCreate = {}, options?: RequestOptions): ApiPromise<Chat> {
    return this.api.post('chats', ChatSchema, 'write', options, [ChatCreateSchema, body]);
  }

  /** One chat. */
  get(chatId: string, options?: RequestOptions): ApiPromise<Chat> {
    return this.api.get(chatAt(chatId), ChatSchema, 'repeatable', options);
  }

  /** Renames a chat or sets its favorite flag. */
  update(chatId: string, body: ChatUpdate, options?: RequestOptions): ApiPromise<Chat> {
    return this.api.patch(chatAt(chatId), ChatSchema, 'repeatable', options, [ChatUpdateSchema, body]);
  }

  /** Deletes a chat (softly, for the API and the application alike); returns `{ id, deleted: true }`. */
  delete(chatId: string, options?: RequestOptions): ApiPromise<ChatDeleted> {
    return this.api.delete(chatAt(chatId), ChatDeletedSchema, 'write', options);
  }

  /** The chat's turns in chronological order, each with its `prompt` and `created_at`. */
  messages(chatId: string, query: PageQuery = {}, options?: RequestOptions): PagePromise<Message> {
    return this.api.list(chatAt(chatId, '/messages'), MessageListSchema, 'repeatable', options, [
      PageQuerySchema,
      query,
    ]);
  }

  /** Models, permission modes, and the libraries, skills and connectors the credential's scopes allow. */
  catalog(options?: RequestOptions): ApiPromise<Catalog> {
    return this.api.get('chat/catalog', CatalogSchema, 'repeatable', options);
  }
}

/** Checks a chat id (a UUID) before it goes into a path. */
export function chatPath(chatId: string): string {
  return checkInput(ChatIdSchema, chatId, 'chat_id');
}

/** The path of a chat (and `rest` below it), its id checked when the call runs. */
export function chatAt(chatId: string, rest = ''): () => string {
  return () => `chats/${chatPath(chatId)}${rest}`;
}
