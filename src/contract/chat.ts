import * as z from 'zod/mini';
import { IntId, maxChars, openEnum, Timestamp, Uuid } from './checks.js';
import { LIMITS } from './limits.js';
import { PageQuerySchema } from './page.js';

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
export const ChatSchema = z.looseObject({
  id: Uuid,
  name: z.nullable(z.string()),
  is_favorite: z.boolean(),
  permission_mode: openEnum<PermissionMode>(),
  model_id: z.nullable(IntId),
  created_at: Timestamp,
  updated_at: Timestamp,
});

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
export const ChatCreateSchema = z.strictObject({
  name: z.optional(maxChars(LIMITS.chatName)),
  model_id: z.optional(IntId),
  permission_mode: z.optional(z.enum(PERMISSION_MODES)),
});

/** Body of `PATCH /chats/{id}` (4.2): the model and permission mode travel per turn instead. */
export interface ChatUpdate {
  /** New title. */
  name?: string | undefined;
  /** Favorite flag. */
  is_favorite?: boolean | undefined;
}

/** Body of `PATCH /chats/{id}` (4.2); an unknown field is refused. */
export const ChatUpdateSchema = z.strictObject({
  name: z.optional(z.string()),
  is_favorite: z.optional(z.boolean()),
});

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
export const ChatListQuerySchema = z.strictObject({
  ...PageQuerySchema.shape,
  is_favorite: z.optional(z.boolean()),
});

/** What deleting a chat returns. */
export interface ChatDeleted {
  /** The deleted chat's id. */
  id: string;
  /** Always `true`. */
  deleted: true;
}

/** `data` of `DELETE /chats/{id}`. */
export const ChatDeletedSchema = z.looseObject({ id: Uuid, deleted: z.literal(true) });

/** A chat id: a UUID. */
export const ChatIdSchema = Uuid;
