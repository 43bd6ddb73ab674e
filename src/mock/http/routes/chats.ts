import { ChatCreateSchema, ChatListQuerySchema, ChatUpdateSchema } from '../../../contract/chat.js';
import { canSeeChat, isCompletionModel } from '../../state/access.js';
import { createChat, deleteChat, updateChat, visibleChat } from '../../state/chat-records.js';
import type { MockStore } from '../../state/store.js';
import { publicChat, publicMessage } from '../../state/views.js';
import { readJson, validate, validationFailure } from '../../wire/input.js';
import { success } from '../../wire/respond.js';
import type { Handlers } from '../handler.js';
import { pageQuery, paginate } from '../paging.js';

/**
 * The chat endpoints of 4.2 but the catalog, the sends and actions. A chat is the credential's own
 * (section 1): another credential's, a deleted or a malformed id is 404, the same body as a missing one (7.1).
 */
export function chatHandlers(store: MockStore) {
  return {
    'chats.list': (c) => {
      const credential = c.get('credential');
      const query = new URL(c.req.url).searchParams;
      const { is_favorite } = validate(ChatListQuerySchema, {
        ...pageQuery(query),
        is_favorite: queryBoolean(query.get('is_favorite')),
      });
      // Newest first: by creation time, then by insertion for chats created in the same millisecond.
      const chats = [...store.chatsById.values()]
        .filter((chat) => canSeeChat(credential, chat))
        .filter((chat) => is_favorite === undefined || chat.is_favorite === is_favorite)
        .sort((a, b) => b.created_at.localeCompare(a.created_at) || b.seq - a.seq);
      const { items, meta } = paginate(chats, query);
      return success(items.map(publicChat), { page: meta });
    },

    'chats.create': async (c) => {
      const input = validate(ChatCreateSchema, await readJson(c.req.raw));
      if (input.model_id !== undefined && !isCompletionModel(store.fixtures, input.model_id)) {
        throw validationFailure([
          { field: 'model_id', message: 'must be a COMPLETION model of the catalog' },
        ]);
      }
      const chat = createChat(store, c.get('credential'), {
        name: input.name,
        model_id: input.model_id,
        permission_mode: input.permission_mode,
      });
      return success(publicChat(chat), { status: 201, message: 'Chat created.' });
    },

    'chats.get': (c) => {
      return success(publicChat(visibleChat(store, c.get('credential'), c.req.param('chat_id'))));
    },

    'chats.update': async (c) => {
      const input = validate(ChatUpdateSchema, await readJson(c.req.raw));
      const chat = visibleChat(store, c.get('credential'), c.req.param('chat_id'));
      updateChat(store, chat, input);
      return success(publicChat(chat), { message: 'Chat updated.' });
    },

    'chats.delete': (c) => {
      const chat = visibleChat(store, c.get('credential'), c.req.param('chat_id'));
      deleteChat(store, chat);
      return success({ id: chat.id, deleted: true }, { message: 'Chat deleted.' });
    },

    'chats.messages': (c) => {
      const chat = visibleChat(store, c.get('credential'), c.req.param('chat_id'));
      // Chronological: turn ids come from one counter, so id order is creation order.
      const turns = [...store.turnsById.values()]
        .filter((turn) => turn.chat_id === chat.id)
        .sort((a, b) => a.id - b.id);
      const { items, meta } = paginate(turns, new URL(c.req.url).searchParams);
      return success(items.map(publicMessage), { page: meta });
    },
  } satisfies Partial<Handlers>;
}

// `true` and `false` are the booleans of a query string; any other text stays text and fails the schema.
function queryBoolean(value: string | null): boolean | string | undefined {
  if (value === null) return undefined;
  return value === 'true' ? true : value === 'false' ? false : value;
}
