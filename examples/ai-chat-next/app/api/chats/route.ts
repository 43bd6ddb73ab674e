// The page's chats, from the server (the token stays here): POST /api/chats creates one for the browser's
// user, GET /api/chats?id= answers its saved turns as useChat messages (toUIMessages), for a page that opens
// or reloads it: useChat({ messages }) shows the conversation, `resume: true` the turn still running.
// The user is a random id in an httpOnly cookie; a real app takes it from its sign-in session and keeps each
// chat's owner in its database. The check is the same: the chat is the user's, else 404.
import { Client } from 'convo-sdk';
import { toUIMessages } from 'convo-sdk/ai';

// CONVO_BASE_URL and CONVO_API_TOKEN, read when the server starts: `next build` needs neither.
const client = new Client();

const COOKIE = 'convo-user';
const MAX_OWNED = 10_000;
/** The chats' owners by chat id, in this process; the least recently created forgotten past MAX_OWNED. */
const owners = new Map<string, string>();

/** The user a request comes from, if it has one. */
function userOf(request: Request): string | undefined {
  for (const pair of (request.headers.get('cookie') ?? '').split(';')) {
    const [name, value] = pair.trim().split('=');
    if (name === COOKIE && value && /^[0-9a-f-]{36}$/.test(value)) return value;
  }
  return undefined;
}

/** Creates a chat owned by the request's user (a new one without the cookie); answers its id. */
export async function POST(request: Request): Promise<Response> {
  const user = userOf(request) ?? crypto.randomUUID();
  const { id } = await client.chats.create({ name: 'Next.js example' });
  owners.set(id, user);
  if (owners.size > MAX_OWNED) owners.delete(owners.keys().next().value as string);
  return Response.json(
    { id },
    { headers: { 'set-cookie': `${COOKIE}=${user}; Path=/; HttpOnly; SameSite=Lax` } },
  );
}

/** The chat's history (`?id=`); 404 for a chat that is not the user's. */
export async function GET(request: Request): Promise<Response> {
  const id = new URL(request.url).searchParams.get('id') ?? '';
  const user = userOf(request);
  if (!user || owners.get(id) !== user)
    return Response.json({ error: { name: 'NotFound', message: 'no such chat' } }, { status: 404 });
  return Response.json(await toUIMessages(client, id));
}
