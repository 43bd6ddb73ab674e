import * as z from 'zod/mini';
import { intId, maxChars, openEnum, timestamp, uuid } from './checks.js';
import { lazy } from './lazy.js';
import { LIMITS } from './limits.js';
import { pageQuerySchema } from './page.js';

/** Whether a turn asks permission before running tools (`manual`) or not (`auto`). */
export const PERMISSION_MODES = ['manual', 'auto'] as const;
/** A permission mode: `manual` or `auto`. */
export type PermissionMode = (typeof PERMISSION_MODES)[number];

/** A conversation; each exchange in it is a turn (2.3). */
export interface Chat {
  /** Identifier (a UUID). */
  id: string;
  /** Title, or null. */
  name: string | null;
  /** Favorite flag. */
  is_favorite: boolean;
  /** `manual` or `auto`; a newer service may add modes. */
  permission_mode: PermissionMode | (string & {});
  /** The chat's default model, or null. */
  model_id: number | null;
  /** Creation time (ISO 8601). */
  created_at: string;
  /** Last activity (ISO 8601). */
  updated_at: string;
}

/** A chat as the service returns it (2.3); fields the contract does not name are kept. */
export const chatSchema = lazy(() =>
  z.looseObject({
    id: uuid(),
    name: z.nullable(z.string()),
    is_favorite: z.boolean(),
    permission_mode: openEnum<PermissionMode>(),
    model_id: z.nullable(intId()),
    created_at: timestamp(),
    updated_at: timestamp(),
  }),
);
/** A chat as the service returns it (`chatSchema`'s schema). */
export const ChatSchema = /* @__PURE__ */ chatSchema();

/** Body of `POST /chats` (4.2); every field optional. */
export interface ChatCreate {
  /** Title, up to 200 characters. */
  name?: string | undefined;
  /** Default model (ids come from the catalog). */
  model_id?: number | undefined;
  /** `manual` (default) or `auto`. */
  permission_mode?: PermissionMode | undefined;
}

/** Body of `POST /chats` (4.2); an unknown field is refused. */
export const chatCreateSchema = lazy(() =>
  z.strictObject({
    name: z.optional(maxChars(LIMITS.chatName)),
    model_id: z.optional(intId()),
    permission_mode: z.optional(z.enum(PERMISSION_MODES)),
  }),
);
/** Body of `POST /chats` (`chatCreateSchema`'s schema). */
export const ChatCreateSchema = /* @__PURE__ */ chatCreateSchema();

/** Body of `PATCH /chats/{id}` (4.2): the model and permission mode travel per turn instead. */
export interface ChatUpdate {
  /** New title. */
  name?: string | undefined;
  /** Favorite flag. */
  is_favorite?: boolean | undefined;
}

/** Body of `PATCH /chats/{id}` (4.2); an unknown field is refused. */
export const chatUpdateSchema = lazy(() =>
  z.strictObject({
    name: z.optional(z.string()),
    is_favorite: z.optional(z.boolean()),
  }),
);
/** Body of `PATCH /chats/{id}` (`chatUpdateSchema`'s schema). */
export const ChatUpdateSchema = /* @__PURE__ */ chatUpdateSchema();

/** Query of `GET /chats`: pagination and the favorite filter. */
export type ChatListQuery = {
  /** Page number, from 1. */
  page?: number | undefined;
  /** Page size, 1 to 200 (default 50). */
  size?: number | undefined;
  /** Only favorites (`true`) or only the others (`false`). */
  is_favorite?: boolean | undefined;
};

/**
 * Query of `GET /chats`; an unknown field is refused. The page's fields spread into a strict object of its
 * own: `z.extend` would be the same schema, and 0.4 KB gzipped of zod in every bundle of the client.
 */
export const chatListQuerySchema = lazy(() =>
  z.strictObject({
    ...pageQuerySchema().shape,
    is_favorite: z.optional(z.boolean()),
  }),
);
/** Query of `GET /chats` (`chatListQuerySchema`'s schema). */
export const ChatListQuerySchema = /* @__PURE__ */ chatListQuerySchema();

/** What deleting a chat returns. */
export interface ChatDeleted {
  /** The deleted chat's id. */
  id: string;
  /** Always `true`. */
  deleted: true;
}

/** `data` of `DELETE /chats/{id}`. */
export const chatDeletedSchema = lazy(() => z.looseObject({ id: uuid(), deleted: z.literal(true) }));
/** `data` of `DELETE /chats/{id}` (`chatDeletedSchema`'s schema). */
export const ChatDeletedSchema = /* @__PURE__ */ chatDeletedSchema();

/** A chat id: a UUID. */
export const ChatIdSchema = /* @__PURE__ */ uuid();
