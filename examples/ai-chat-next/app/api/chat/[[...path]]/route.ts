// Every request of useChat under /api/chat: POST /api/chat (a turn), GET /api/chat/{id}/stream (a resume
// after a reload) and POST /api/chat/{id}/stop (the page's Stop). The token stays on the server.
import { Client } from 'convo-sdk';
import { createChatRoute } from 'convo-sdk/ai';
import { owns, userOf } from '../../owner.ts';

// CONVO_BASE_URL and CONVO_API_TOKEN, read at the first call: `next build` needs neither.
const client = new Client();

// One process needs no Redis; several behind a load balancer share one through REDIS_URL (the `redis` and
// `resumable-stream` packages installed; see docs/ai-sdk.md, "A server route").
const redisUrl = process.env.REDIS_URL;
const route = createChatRoute({
  client,
  turn: { permission_mode: 'manual' },
  redis: redisUrl ? { url: redisUrl } : undefined,
  // Each chat to the user who created it: another user's send, resume and stop answer 404.
  authorize: async (request, chatId) => {
    const user = userOf(request);
    return user !== undefined && (await owns(client, user, chatId)) ? { caller: user } : false;
  },
});

/** A turn, and the page's Stop. */
export const POST = route.POST;
/** A resume: 204 when nothing runs. */
export const GET = route.GET;
