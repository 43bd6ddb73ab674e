// Cancelling a turn mid-stream. Aborting only stops reading; cancel() stops the turn itself.
import { Client } from 'convo-sdk';

const client = new Client();
const chatId = crypto.randomUUID();
const stream = client.turns.stream(chatId, {
  content: 'Write a very long essay. [[mock:words n=200]] [[mock:slow ms=20]]',
});

let deltas = 0;
for await (const event of stream) {
  if (event.type === 'delta' && ++deltas === 5) {
    const { cancelled } = await stream.cancel(); // POST /chats/{id}/actions/cancel
    console.log(`cancel delivered: ${cancelled}`);
  }
  if (event.type === 'cancelled') console.log(`cancelled with partial content: "${event.turn.content}"`);
}

// Cancelling is idempotent: the turn is over now, so nothing is cancelled.
console.log(`second cancel: ${(await client.turns.cancel(chatId)).cancelled}`);
