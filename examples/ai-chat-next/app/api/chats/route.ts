// POST /api/chats: a new chat of the service for the page, created on the server (the token stays here),
// owned by the browser's user (app/owners.ts), which the page then opens by its id.
import { Client } from 'convo-sdk';
import { recordOwner, userOf } from '../../owners.js';

// CONVO_BASE_URL and CONVO_API_TOKEN, read when the server starts: `next build` needs neither.
const client = new Client();

/** Creates a chat; answers its id. */
export async function POST(request: Request): Promise<Response> {
  const { id } = await client.chats.create({ name: 'Next.js example' });
  const cookie = recordOwner(id, userOf(request) ?? crypto.randomUUID());
  return Response.json({ id }, { headers: { 'set-cookie': cookie } });
}
