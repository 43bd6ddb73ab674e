// One server process of `route-redis.test.ts`: the built package's createChatRoute behind node:http, its
// answers held in Redis by the AI SDK's resumable-stream and its records in the same Redis, as several
// processes behind a load balancer would run it. Prints its URL, then serves until killed. The global
// Response is left as it is (overrideGlobalObjects), which the client checks its fetch's answers against.
import { serve } from '@hono/node-server';
import { createClient } from 'redis';
import { createResumableStreamContext } from 'resumable-stream';
import { createChatRoute } from '../../dist/ai.js';
import { Client } from '../../dist/index.js';

const { MOCK_URL, REDIS_URL, CONVO_TOKEN } = process.env;
const publisher = createClient({ url: REDIS_URL });
const subscriber = createClient({ url: REDIS_URL });
await Promise.all([publisher.connect(), subscriber.connect()]);
const key = (chatId) => `convo-route:record:${chatId}`;
const route = createChatRoute({
  client: new Client({ baseUrl: MOCK_URL, token: CONVO_TOKEN }),
  streams: createResumableStreamContext({ waitUntil: null, publisher, subscriber, keyPrefix: 'convo-route' }),
  records: {
    get: async (chatId) => JSON.parse((await publisher.get(key(chatId))) ?? 'null') ?? undefined,
    set: (chatId, record) => publisher.set(key(chatId), JSON.stringify(record), { EX: 86_400 }),
    delete: (chatId) => publisher.del(key(chatId)),
  },
});
serve({ fetch: route.handle, port: 0, hostname: '127.0.0.1', overrideGlobalObjects: false }, (info) => {
  console.log(`listening http://127.0.0.1:${info.port}`);
});
