// GET /api/chats/{id}/messages: the chat's saved turns as useChat messages, for a page that opens (or
// reloads) the chat: useChat({ messages }) shows the conversation, and resume: true the turn still running.
import { Client } from 'convo-sdk';
import { toUIMessages } from 'convo-sdk/ai';
import { ownsChat } from '../../../../owners.js';

// CONVO_BASE_URL and CONVO_API_TOKEN, read when the server starts: `next build` needs neither.
const client = new Client();

/** The chat's history; 404 for a chat that is not the user's. */
export async function GET(request: Request, context: { params: Promise<{ id: string }> }): Promise<Response> {
  const { id } = await context.params;
  if (!ownsChat(request, id))
    return Response.json({ error: { name: 'NotFound', message: 'no such chat' } }, { status: 404 });
  return Response.json(await toUIMessages(client, id));
}
