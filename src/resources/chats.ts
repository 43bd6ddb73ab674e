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
import type { PagePromise } from '../http/page.js';
import { outageNeverLeft, repeatable } from '../http/retry.js';
import type { RequestOptions } from '../http/transport.js';
import { checkInput } from '../validate.js';
import { Resource } from './resource.js';

const ChatListSchema = z.array(ChatSchema);
const MessageListSchema = z.array(MessageSchema);

/** `client.chats`: the credential's conversations, their messages, and the catalog (4.2). */
export class Chats extends Resource {
  /** The credential's chats, newest first; `is_favorite` filters. `for await` over it to read every one. */
  list(query: ChatListQuery = {}, options?: RequestOptions): PagePromise<Chat> {
    checkInput(ChatListQuerySchema, query);
    return this.paginate('chats', ChatListSchema, query, options);
  }

  /** Creates an empty chat. */
  async create(body: ChatCreate = {}, options?: RequestOptions): Promise<Chat> {
    checkInput(ChatCreateSchema, body);
    const call = {
      method: 'POST',
      path: 'chats',
      body,
      schema: ChatSchema,
      retry: outageNeverLeft,
      options,
    } as const;
    return (await this.transport.request(call)).data;
  }

  /** One chat. */
  async get(chatId: string, options?: RequestOptions): Promise<Chat> {
    const path = `chats/${chatPath(chatId)}`;
    return (
      await this.transport.request({ method: 'GET', path, schema: ChatSchema, retry: repeatable, options })
    ).data;
  }

  /** Renames a chat or sets its favorite flag. */
  async update(chatId: string, body: ChatUpdate, options?: RequestOptions): Promise<Chat> {
    const path = `chats/${chatPath(chatId)}`;
    checkInput(ChatUpdateSchema, body);
    const call = { method: 'PATCH', path, body, schema: ChatSchema, retry: repeatable, options } as const;
    return (await this.transport.request(call)).data;
  }

  /** Deletes a chat (softly, for the API and the application alike); returns `{ id, deleted: true }`. */
  async delete(chatId: string, options?: RequestOptions): Promise<ChatDeleted> {
    const path = `chats/${chatPath(chatId)}`;
    const call = {
      method: 'DELETE',
      path,
      schema: ChatDeletedSchema,
      retry: outageNeverLeft,
      options,
    } as const;
    return (await this.transport.request(call)).data;
  }

  /** The chat's turns in chronological order, each with its `prompt` and `created_at`. */
  messages(chatId: string, query: PageQuery = {}, options?: RequestOptions): PagePromise<Message> {
    checkInput(PageQuerySchema, query);
    return this.paginate(`chats/${chatPath(chatId)}/messages`, MessageListSchema, query, options);
  }

  /** Models, permission modes, and the libraries, skills and connectors the credential's scopes allow. */
  async catalog(options?: RequestOptions): Promise<Catalog> {
    const call = {
      method: 'GET',
      path: 'chat/catalog',
      schema: CatalogSchema,
      retry: repeatable,
      options,
    } as const;
    return (await this.transport.request(call)).data;
  }
}

/** Checks a chat id (a UUID) before it goes into a path. */
export function chatPath(chatId: string): string {
  return checkInput(ChatIdSchema, chatId, 'chat_id');
}
