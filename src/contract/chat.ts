import * as z from 'zod/mini';
import { IntId, maxChars, Timestamp, Uuid } from './checks.js';
import { LIMITS } from './limits.js';
import { PageQuerySchema } from './page.js';

/** Whether a turn asks permission before running tools (`manual`) or not (`auto`). */
export const PERMISSION_MODES = ['manual', 'auto'] as const;
/** A permission mode: `manual` or `auto`. */
export type PermissionMode = (typeof PERMISSION_MODES)[number];

/** A chat as the service returns it (2.3). */
export const ChatSchema = z.looseObject({
  id: Uuid,
  name: z.nullable(z.string()),
  is_favorite: z.boolean(),
  permission_mode: z.enum(PERMISSION_MODES),
  model_id: z.nullable(IntId),
  created_at: Timestamp,
  updated_at: Timestamp,
});
/** A conversation; each exchange in it is a turn. */
export type Chat = z.infer<typeof ChatSchema>;

/** Body of `POST /chats` (4.2). */
export const ChatCreateSchema = z.looseObject({
  name: z.optional(maxChars(LIMITS.chatName)),
  model_id: z.optional(IntId),
  permission_mode: z.optional(z.enum(PERMISSION_MODES)),
});
/** Body of `POST /chats`. */
export type ChatCreate = z.input<typeof ChatCreateSchema>;

/** Body of `PATCH /chats/{id}` (4.2): the model and permission mode travel per turn instead. */
export const ChatUpdateSchema = z.looseObject({
  name: z.optional(z.string()),
  is_favorite: z.optional(z.boolean()),
});
/** Body of `PATCH /chats/{id}`. */
export type ChatUpdate = z.input<typeof ChatUpdateSchema>;

/** Query of `GET /chats`. */
export const ChatListQuerySchema = z.extend(PageQuerySchema, { is_favorite: z.optional(z.boolean()) });
/** Query of `GET /chats`: pagination and the favorite filter. */
export type ChatListQuery = z.input<typeof ChatListQuerySchema>;

/** `data` of `DELETE /chats/{id}`. */
export const ChatDeletedSchema = z.looseObject({ id: Uuid, deleted: z.literal(true) });
/** What deleting a chat returns. */
export type ChatDeleted = z.infer<typeof ChatDeletedSchema>;

/** A chat id: a UUID. */
export const ChatIdSchema = Uuid;
