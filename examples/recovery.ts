// Errors and recovery with a persisted idempotency key: the same key never runs a turn twice, so a
// process that died mid-call reads the outcome later instead of paying for the turn again.
import { ApiError, Client, ConnectionError, TurnError } from 'convo-sdk';

const client = new Client({
  maxRetries: 3,
  onRetry: ({ error, attempt }) => console.log(`retry ${attempt}: ${error.message}`),
});
const chatId = crypto.randomUUID();
const saved = new Map<string, string>(); // stands in for your database

// 1. Persist the key before sending; any error the call throws carries it too.
const key = crypto.randomUUID();
saved.set('order-42', key);
try {
  const turn = await client.turns.send(chatId, { content: 'Summarize order 42' }, { idempotencyKey: key });
  console.log(`first attempt: ${turn.status}`);
} catch (error) {
  if (error instanceof ConnectionError)
    console.log(`lost it (key ${error.idempotencyKey}); will read it later`);
  else throw error;
}

// 2. Later, maybe in another process: the same key returns the stored turn without running it again.
const again = await client.turns.send(
  chatId,
  { content: 'Summarize order 42' },
  { idempotencyKey: saved.get('order-42')! },
);
console.log(`read back with the saved key: ${again.status}, same key: ${again.idempotencyKey === key}`);

// 3. Typed errors say what happened.
try {
  await client.turns.send(crypto.randomUUID(), { content: '[[mock:error code=upstream_error]]' });
} catch (error) {
  if (error instanceof ApiError && error.is('upstream_error')) {
    console.log(`the turn failed downstream: message ${error.data.message_id}, key ${error.idempotencyKey}`);
  } else throw error;
}
try {
  await client.turns
    .stream(crypto.randomUUID(), { content: '[[mock:error code=upstream_error]]' })
    .finalTurn();
} catch (error) {
  if (error instanceof TurnError)
    console.log(`streamed turn failed: ${error.code}, retryable with a new key: ${error.retryable}`);
  else throw error;
}
