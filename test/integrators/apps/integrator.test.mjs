// The integrator test of integrator.spec.ts for `node --test`, with node:assert: (a) a streamed turn with a
// tool approval through the in-process mock, (b) a typed 404, (c) msw: the mock behind the global fetch, with
// one endpoint overridden by the app's own handler answering the contract's error envelope, written by hand
// and built by the package's errorResponse.
import assert from 'node:assert/strict';
import { after, afterEach, before, test } from 'node:test';
import { Client, ConflictError, NotFoundError } from 'convo-sdk';
import { createMock } from 'convo-sdk/mock';
import { errorResponse, mswHandlers } from 'convo-sdk/msw';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';

const BASE_URL = 'https://convo.test';
const REQUEST_ID = '00000000-0000-4000-8000-000000000001';
const mock = createMock();
const inProcess = new Client({ baseUrl: mock.url, token: 'mock-token', fetch: mock.fetch, maxRetries: 0 });
const server = setupServer(...mswHandlers(mock, { baseUrl: BASE_URL }));
const viaMsw = new Client({ baseUrl: BASE_URL, token: 'mock-token', maxRetries: 0 });

before(() => server.listen());
afterEach(() => {
  server.resetHandlers();
  mock.reset();
});
after(() => server.close());

async function approvedToolTurn(client) {
  const asked = [];
  const texts = [];
  const turn = await client.turns.run(
    crypto.randomUUID(),
    { content: 'Look it up. [[mock:tool_approval]] [[mock:words n=5]]' },
    {
      signal: AbortSignal.timeout(10_000),
      onToolApproval: (approval) => {
        asked.push(...approval.tools.map((tool) => `${tool.name}@${tool.server}`));
        return true;
      },
      onText: (_delta, snapshot) => texts.push(snapshot),
    },
  );
  assert.equal(turn.status, 'completed');
  assert.deepEqual(asked, ['search@github']);
  assert.ok(texts.length >= 5, `${texts.length} text updates`);
  assert.equal(texts.at(-1), turn.content);
  const called = turn.steps
    .flatMap((step) => step.tool_calls ?? [])
    .map((call) => `${call.name}@${call.server}`);
  assert.ok(called.includes('search@github'), `tools called: ${called}`);
}

/** Asserts a typed 404 the way an app branches on it. */
function assertNotFound(error, requestId) {
  assert.ok(error instanceof NotFoundError, `not a NotFoundError: ${error}`);
  assert.equal(error.name, 'NotFoundError');
  assert.equal(error.status, 404);
  assert.equal(error.code, 'api_v1_not_found');
  if (requestId) assert.equal(error.requestId, requestId);
  return true;
}

test('a streamed turn asks for a tool, is approved and completes (in-process mock)', async () => {
  await approvedToolTurn(inProcess);
});

test('a missing skill is a typed NotFoundError (in-process mock)', async () => {
  await assert.rejects(inProcess.skills.get(999_999), (error) => assertNotFound(error));
});

test('through msw: a streamed turn with a tool approval, and an overridden endpoint answers a typed 404', async () => {
  await approvedToolTurn(viaMsw);
  const skill = await viaMsw.skills.create({ name: 'Tone', instructions: 'Be brief.' });
  assert.equal((await viaMsw.skills.get(skill.id)).name, 'Tone');

  server.use(
    http.get(`${BASE_URL}/api/v1/skills/:id`, () =>
      HttpResponse.json(
        {
          status: 'error',
          message: 'Skill archived by the override.',
          message_code: 'api_v1_not_found',
          data: null,
          meta: { request_id: REQUEST_ID },
        },
        { status: 404 },
      ),
    ),
  );
  await assert.rejects(viaMsw.skills.get(skill.id), (error) => assertNotFound(error, REQUEST_ID));
});

test("through msw: an override built with the package's errorResponse fails a send with a typed ConflictError", async () => {
  server.use(
    http.post(`${BASE_URL}/api/v1/chats/:chatId/messages`, () =>
      errorResponse({ status: 409, code: 'api_v1_chat_busy', data: { message_id: 7 } }),
    ),
  );
  await assert.rejects(viaMsw.turns.send(crypto.randomUUID(), { content: 'Hello' }), (error) => {
    assert.ok(error instanceof ConflictError, `not a ConflictError: ${error}`);
    assert.equal(error.name, 'ConflictError');
    assert.ok(error.is('api_v1_chat_busy'));
    assert.equal(error.data.message_id, 7);
    return true;
  });
});
