// POST /api/chats: a new chat of the service, for a page opened without one.
import { Client } from 'convo-sdk';

const client = new Client({
  baseUrl: process.env.CONVO_BASE_URL ?? 'http://127.0.0.1:4010',
  token: process.env.CONVO_TOKEN ?? 'mock-token',
});

/** Creates a chat; answers its id. */
export async function POST(): Promise<Response> {
  const { id } = await client.chats.create({ name: 'Next.js example' });
  return Response.json({ id });
}
