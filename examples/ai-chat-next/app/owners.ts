// Who may use a chat: the browser that created it, known by a random id in an httpOnly cookie. A real app
// takes the user from its sign-in session and keeps each chat's owner in its database; the check is the
// same: the chat is the signed-in user's, else the answer is 404.

/** The cookie that names the browser's user. */
const COOKIE = 'convo-user';
/**
 * The chats' owners, by chat id: in memory, one process, the least recently created forgotten past 10,000.
 * On `globalThis`, since Next.js may bundle this module into each route apart.
 */
const shared = globalThis as { convoChatOwners?: Map<string, string> };
shared.convoChatOwners ??= new Map<string, string>();
const owners = shared.convoChatOwners;
const MAX_OWNED = 10_000;

/** The user a request comes from, if it has one. */
export function userOf(request: Request): string | undefined {
  const cookies = request.headers.get('cookie') ?? '';
  for (const pair of cookies.split(';')) {
    const [name, value] = pair.trim().split('=');
    if (name === COOKIE && value && /^[0-9a-f-]{36}$/.test(value)) return value;
  }
  return undefined;
}

/** Records `user` as the owner of `chatId`; the `Set-Cookie` value that names the user to the browser. */
export function recordOwner(chatId: string, user: string): string {
  owners.set(chatId, user);
  if (owners.size > MAX_OWNED) owners.delete(owners.keys().next().value as string);
  return `${COOKIE}=${user}; Path=/; HttpOnly; SameSite=Lax`;
}

/** Whether the request's user created `chatId`: the chat route's `authorize`, and the history's. */
export function ownsChat(request: Request, chatId: string): boolean {
  const user = userOf(request);
  return user !== undefined && owners.get(chatId) === user;
}
