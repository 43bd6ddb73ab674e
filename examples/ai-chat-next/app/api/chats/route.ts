// POST /api/chats: a new chat of the service, for a page opened without one, owned by the browser's user.
import { Client } from 'convo-sdk';
import { chatName, userCookie, userOf } from '../owner.ts';

const client = new Client({
  baseUrl: process.env.CONVO_BASE_URL ?? 'http://127.0.0.1:4010',
  token: process.env.CONVO_TOKEN ?? 'mock-token',
});

/** Creates a chat of the request's user (a new user id for a browser without one); answers its id. */
export async function POST(request: Request): Promise<Response> {
  const user = userOf(request) ?? crypto.randomUUID();
  const { id } = await client.chats.create({ name: chatName(user) });
  return Response.json({ id }, { headers: { 'set-cookie': userCookie(user) } });
}
