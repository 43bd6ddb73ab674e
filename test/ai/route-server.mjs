// One server process of `route-redis.test.ts` and `chaos.mjs`: the built package's createChatRoute behind
// node:http, its records and live answers in Redis (the route's own clients, `redis: { url }`), as several
// processes behind a load balancer run it. Each request names its user in `x-user`; `CHATS_OF` (a JSON file
// path, optional) maps each chat to its owner, and a chat not in it is every user's. Prints its URL, then
// serves until killed. The global Response is left as it is (overrideGlobalObjects), which the client checks
// its fetch's answers against.
import { readFileSync } from 'node:fs';
import { serve } from '@hono/node-server';
import { createChatRoute } from '../../dist/ai.js';
import { Client } from '../../dist/index.js';

const { MOCK_URL, REDIS_URL, CONVO_TOKEN, CHATS_OF, PORT, MAX_HELD_BYTES } = process.env;
/** The owner of each chat, read again when a chat is not in it (the chaos run adds chats as it goes). */
let owners = {};
const ownerOf = (chatId) => {
  if (CHATS_OF && !(chatId in owners)) owners = JSON.parse(readFileSync(CHATS_OF, 'utf8'));
  return owners[chatId];
};
const route = createChatRoute({
  client: new Client({ baseUrl: MOCK_URL, token: CONVO_TOKEN }),
  redis: { url: REDIS_URL },
  authorize: (request, chatId) => {
    const user = request.headers.get('x-user') ?? 'anyone';
    const owner = ownerOf(chatId);
    return owner === undefined || owner === user ? { caller: user } : false;
  },
  ...(MAX_HELD_BYTES ? { maxHeldBytes: Number(MAX_HELD_BYTES) } : {}),
});
serve(
  { fetch: route.handle, port: Number(PORT ?? 0), hostname: '127.0.0.1', overrideGlobalObjects: false },
  (info) => {
    console.log(`listening http://127.0.0.1:${info.port}`);
  },
);
