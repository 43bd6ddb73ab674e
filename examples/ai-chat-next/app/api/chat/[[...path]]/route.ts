// Every request of useChat under /api/chat: POST /api/chat (a turn), GET /api/chat/{id}/stream (a resume
// after a reload) and POST /api/chat/{id}/stop (the page's Stop). The token stays on the server.
import { Client } from 'convo-sdk';
import { createChatRoute } from 'convo-sdk/ai';

const client = new Client({
  baseUrl: process.env.CONVO_BASE_URL ?? 'http://127.0.0.1:4010',
  token: process.env.CONVO_TOKEN ?? 'mock-token',
});

// One process here; several behind a load balancer give it `streams` (resumable-stream on Redis) and
// `records` shared by all (see docs/ai-sdk.md, "A server route"). A real app checks the chat is the user's.
const route = createChatRoute({ client, authorize: 'every-chat-to-every-caller', turn: { permission_mode: 'manual' } });

/** A turn, and the page's Stop. */
export const POST = route.POST;
/** A resume: 204 when nothing runs. */
export const GET = route.GET;
