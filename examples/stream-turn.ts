// A streamed turn, printed as it is written.
import { Client } from 'convo-sdk';

const client = new Client();
const stream = client.turns.stream(crypto.randomUUID(), {
  content: 'Tell me a short story. [[mock:words n=12]] [[mock:failover]]',
  permission_mode: 'auto',
});

for await (const event of stream) {
  if (event.type === 'delta') {
    // A replace (provider failover) means: forget what was shown and show the full text again.
    if (event.replace) process.stdout.write(`\n[restarted] ${event.text}`);
    else process.stdout.write(event.text);
  }
  if (event.type === 'resumed') process.stdout.write(' [reconnected] ');
}

const turn = await stream.finalTurn();
console.log(`\n${turn.status}: ${turn.content.length} characters, ${turn.usage?.completion_tokens} tokens`);
