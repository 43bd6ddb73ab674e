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
const MessageListSchema = z.array(MessageSchema);

/** `client.chats`: the credential's conversations, their messages, and the catalog (4.2). */
export class Chats extends Resource {
  /** The credential's chats, newest first; `is_favorite` filters. `for await` over it to read every one. */
  list(query: ChatListQuery = {}, options?: RequestOptions): PagePromise<Chat> {
    return this.paginate(() => 'chats', ChatListQuerySchema, ChatListSchema, query, options);
  }

  /** Creates an empty chat. */
  create(body: ChatCreate = {}, options?: RequestOptions): ApiPromise<Chat> {
    return this.call(async () => {
      checkInput(ChatCreateSchema, body);
      const call = {
        method: 'POST',
        path: 'chats',
        body,
        schema: ChatSchema,
        kind: 'write',
        options,
      } as const;
      return this.transport.request(call);
    });
  }

  /** One chat. */
  get(chatId: string, options?: RequestOptions): ApiPromise<Chat> {
    return this.call(async () => {
      const path = `chats/${chatPath(chatId)}`;
      return this.transport.request({ method: 'GET', path, schema: ChatSchema, kind: 'read', options });
    });
  }

  /** Renames a chat or sets its favorite flag. */
  update(chatId: string, body: ChatUpdate, options?: RequestOptions): ApiPromise<Chat> {
    return this.call(async () => {
      const path = `chats/${chatPath(chatId)}`;
      checkInput(ChatUpdateSchema, body);
      const call = { method: 'PATCH', path, body, schema: ChatSchema, kind: 'read', options } as const;
      return this.transport.request(call);
    });
  }

  /** Deletes a chat (softly, for the API and the application alike); returns `{ id, deleted: true }`. */
  delete(chatId: string, options?: RequestOptions): ApiPromise<ChatDeleted> {
    return this.call(async () => {
      const path = `chats/${chatPath(chatId)}`;
      const call = {
        method: 'DELETE',
        path,
        schema: ChatDeletedSchema,
        kind: 'write',
        options,
      } as const;
      return this.transport.request(call);
    });
  }

  /** The chat's turns in chronological order, each with its `prompt` and `created_at`. */
  messages(chatId: string, query: PageQuery = {}, options?: RequestOptions): PagePromise<Message> {
    const path = () => `chats/${chatPath(chatId)}/messages`;
    return this.paginate(path, PageQuerySchema, MessageListSchema, query, options);
  }

  /** Models, permission modes, and the libraries, skills and connectors the credential's scopes allow. */
  catalog(options?: RequestOptions): ApiPromise<Catalog> {
    return this.call(async () => {
      const call = {
        method: 'GET',
        path: 'chat/catalog',
        schema: CatalogSchema,
        kind: 'read',
        options,
      } as const;
      return this.transport.request(call);
    });
  }
}

/** Checks a chat id (a UUID) before it goes into a path. */
export function chatPath(chatId: string): string {
  return checkInput(ChatIdSchema, chatId, 'chat_id');
}
