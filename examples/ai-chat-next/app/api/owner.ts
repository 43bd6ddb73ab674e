// Whose chat is whose, without a database: each browser gets a random user id in an httpOnly cookie, and
// each chat is named after the user who created it. A real app reads its session and its own chats table.
import type { Client } from 'convo-sdk';

/** The cookie that carries the browser's user id. */
const COOKIE = 'convo-user';

/** The request's user id, from its cookie; undefined when it has none. */
export function userOf(request: Request): string | undefined {
  const cookies = request.headers.get('cookie') ?? '';
  return /(?:^|;\s*)convo-user=([0-9a-f-]{36})(?:;|$)/.exec(cookies)?.[1];
}

/** The `Set-Cookie` header giving a browser its user id. */
export const userCookie = (user: string): string =>
  `${COOKIE}=${user}; Path=/; HttpOnly; SameSite=Lax; Max-Age=31536000`;

/** The name a chat of `user` is created with. */
export const chatName = (user: string): string => `Next.js example (user ${user})`;

/** Whether `chatId` is a chat `user` created (the service answers 404 for a chat of nobody here). */
export async function owns(client: Client, user: string, chatId: string): Promise<boolean> {
  const chat = await client.chats.get(chatId).catch(() => undefined);
  return chat?.name === chatName(user);
}
