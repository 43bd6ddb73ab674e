// An integrator's msw-backed test, run by test/msw/run.mjs with `node --test` in a project that installed the
// packed tarball next to one msw version: the app's Client uses the global fetch, msw routes it to the mock.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, afterEach, before, test } from 'node:test';
import { ApiError, Client } from 'convo-sdk';
import { createMock } from 'convo-sdk/mock';
import { mswHandlers } from 'convo-sdk/msw';
import { setupServer } from 'msw/node';

const msw = JSON.parse(readFileSync('node_modules/msw/package.json', 'utf8')).version;
const mock = createMock();
const server = setupServer(...mswHandlers(mock));
const client = new Client({ baseUrl: mock.url, token: 'mock-token', maxRetries: 0 });

before(() => server.listen());
afterEach(() => mock.reset());
after(() => server.close());

test(`msw ${msw}: a streamed turn arrives delta by delta, the tool is approved and the turn completes`, async () => {
  const seen = [];
  const started = performance.now();
  const turn = await client.turns.run(
    crypto.randomUUID(),
    { content: 'Look it up. [[mock:tool_approval]] [[mock:words n=5]] [[mock:slow ms=40]]' },
    {
      onToolApproval: () => true,
      onEvent: (event) => seen.push({ type: event.type, at: performance.now() - started }),
    },
  );
  assert.equal(turn.status, 'completed');
  assert.ok(turn.content.length > 0);
  const deltas = seen.filter((event) => event.type === 'delta');
  assert.ok(deltas.length >= 5, `${deltas.length} deltas`);
  // Streamed, not buffered: the first words arrive well before the last.
  assert.ok(deltas.at(-1).at - deltas[0].at >= 100, 'the deltas arrived all at once');
  const calls = seen.filter((event) => event.type === 'step');
  assert.ok(calls.length > 0, 'no step with the approved tool');
});

test(`msw ${msw}: a synchronous turn and an API error pass through unchanged`, async () => {
  const chat = await client.chats.create({ name: 'msw' });
  const turn = await client.turns.send(chat.id, { content: 'Hello [[mock:words n=3]]' });
  assert.equal(turn.status, 'completed');
  const error = await client.skills.get(999).catch((thrown) => thrown);
  assert.ok(error instanceof ApiError, String(error));
  assert.equal(error.status, 404);
});
