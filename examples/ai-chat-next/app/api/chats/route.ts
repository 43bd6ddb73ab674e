// The page's chats, from the server (the token stays here): POST /api/chats creates one for the browser's
// user, GET /api/chats?id= answers its saved turns as useChat messages (toUIMessages), for a page that opens
// or reloads it: useChat({ messages }) shows the conversation, `resume: true` the turn still running.
// The user is a random id in an httpOnly cookie (../owner.ts); a real app takes it from its sign-in session
// and keeps each chat's owner in its database. The check is the same: the chat is the user's, else 404.
import { Client } from 'convo-sdk';
import { toUIMessages } from 'convo-sdk/ai';
import { chatName, owns, userCookie, userOf } from '../owner.ts';

// CONVO_BASE_URL and CONVO_API_TOKEN, read at the first call: `next build` needs neither.
const client = new Client();

/** Creates a chat of the request's user (a new user id for a browser without one); answers its id. */
export async function POST(request: Request): Promise<Response> {
  const user = userOf(request) ?? crypto.randomUUID();
  const { id } = await client.chats.create({ name: chatName(user) });
  return Response.json({ id }, { headers: { 'set-cookie': userCookie(user) } });
}

/** The chat's history (`?id=`); 404 for a chat that is not the user's. */
export async function GET(request: Request): Promise<Response> {
  const id = new URL(request.url).searchParams.get('id') ?? '';
  const user = userOf(request);
  if (!user || !(await owns(client, user, id)))
    return Response.json({ error: { name: 'NotFound', message: 'no such chat' } }, { status: 404 });
  return Response.json(await toUIMessages(client, id));
}
