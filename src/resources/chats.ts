import type { Catalog } from '../contract/catalog.js';
import type { Chat, ChatCreate, ChatDeleted, ChatListQuery, ChatUpdate } from '../contract/chat.js';
import type { PageQuery } from '../contract/page.js';
import type { Message } from '../contract/turn.js';
import type { ApiPromise } from '../http/api-promise.js';
import type { PagePromise } from '../http/page.js';
import type { RequestOptions } from '../http/transport.js';
import { Resource } from './resource.js';

/** `client.chats`: the credential's conversations, their messages, and the catalog (4.2). */
export class Chats extends Resource {
  /** The credential's chats, newest first; `is_favorite` filters. `for await` over it to read every one. */
  list(query: ChatListQuery = {}, options?: RequestOptions): PagePromise<Chat> {
    return this.api.list('chats.list', {}, query, options);
  }

  /** Creates an empty chat. */
  create(body: ChatCreate = {}, options?: RequestOptions): ApiPromise<Chat> {
    return this.api.call('chats.create', {}, options, body);
  }

  /** One chat. */
  get(chatId: string, options?: RequestOptions): ApiPromise<Chat> {
    return this.api.call('chats.get', { chat_id: chatId }, options);
  }

  /** Renames a chat or sets its favorite flag. */
  update(chatId: string, body: ChatUpdate, options?: RequestOptions): ApiPromise<Chat> {
    return this.api.call('chats.update', { chat_id: chatId }, options, body);
  }

  /** Deletes a chat (softly, for the API and the application alike); returns `{ id, deleted: true }`. */
  delete(chatId: string, options?: RequestOptions): ApiPromise<ChatDeleted> {
    return this.api.call('chats.delete', { chat_id: chatId }, options);
  }

  /** The chat's turns in chronological order, each with its `prompt` and `created_at`. */
  messages(chatId: string, query: PageQuery = {}, options?: RequestOptions): PagePromise<Message> {
    return this.api.list('chats.messages', { chat_id: chatId }, query, options);
  }

  /** Models, permission modes, and the libraries, skills and connectors the credential's scopes allow. */
  catalog(options?: RequestOptions): ApiPromise<Catalog> {
    return this.api.call('chats.catalog', {}, options);
  }
}
