// A synchronous turn: send a message, wait for the whole answer.
// Run: CONVO_BASE_URL=http://127.0.0.1:4010 CONVO_API_TOKEN=mock-token node examples/sync-turn.ts
import { Client } from 'convo-sdk';

const client = new Client(); // reads CONVO_BASE_URL and CONVO_API_TOKEN

// Sending to a chat id that does not exist yet creates that chat.
const chatId = crypto.randomUUID();
const turn = await client.turns.send(chatId, { content: 'What is an idempotency key?' });

console.log(turn.content);
console.log(`status: ${turn.status}, tokens: ${turn.usage?.total_tokens ?? 0}, key: ${turn.idempotencyKey}`);
