// An integrator's own test, written once for vitest and run by Jest 29 and 30 (ts-jest, CommonJS and ESM)
// with its one import from '@jest/globals' instead, from a project that installed the packed tarball.
// (a) a streamed turn with a tool approval through the in-process mock, (b) a typed 404, (c) msw: the mock
// behind the app's own fetch, with one endpoint overridden by the app's own handler answering the contract's
// error envelope, written by hand and built by the package's errorResponse.
import { Client, ConflictError, NotFoundError, type ToolApproval } from 'convo-sdk';
import { createMock } from 'convo-sdk/mock';
import { errorResponse, mswHandlers } from 'convo-sdk/msw';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';

const BASE_URL = 'https://convo.test';
const mock = createMock();
const inProcess = new Client({ baseUrl: mock.url, token: 'mock-token', fetch: mock.fetch, maxRetries: 0 });
const server = setupServer(...mswHandlers(mock, { baseUrl: BASE_URL }));
// The global fetch, as the app's code has it: msw intercepts it.
const viaMsw = new Client({ baseUrl: BASE_URL, token: 'mock-token', maxRetries: 0 });

beforeAll(() => server.listen());
afterEach(() => {
  server.resetHandlers();
  mock.reset();
});
afterAll(() => server.close());

/** Streams a turn that asks to run a tool, approves it, and checks what an app would show. */
async function approvedToolTurn(client: Client): Promise<void> {
  const asked: string[] = [];
  const texts: string[] = [];
  const turn = await client.turns.run(
    crypto.randomUUID(),
    { content: 'Look it up. [[mock:tool_approval]] [[mock:words n=5]]' },
    {
      signal: AbortSignal.timeout(10_000),
      onToolApproval: (approval: ToolApproval) => {
        asked.push(...approval.tools.map((tool) => `${tool.name}@${tool.server}`));
        return true;
      },
      onText: (_delta, snapshot) => {
        texts.push(snapshot);
      },
    },
  );
  expect(turn.status).toBe('completed');
  expect(asked).toEqual(['search@github']);
  expect(texts.length).toBeGreaterThanOrEqual(5);
  expect(texts.at(-1)).toBe(turn.content);
  const called = turn.steps
    .flatMap((step) => step.tool_calls ?? [])
    .map((call) => `${call.name}@${call.server}`);
  expect(called).toContain('search@github');
}

test('a streamed turn asks for a tool, is approved and completes (in-process mock)', async () => {
  await approvedToolTurn(inProcess);
});

test('a missing skill is a typed NotFoundError (in-process mock)', async () => {
  const error: unknown = await inProcess.skills.get(999_999).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(NotFoundError);
  const notFound = error as NotFoundError;
  expect(notFound.name).toBe('NotFoundError');
  expect(notFound.status).toBe(404);
  expect(notFound.code).toBe('api_v1_not_found');
});

test('through msw: a streamed turn with a tool approval, and an overridden endpoint answers a typed 404', async () => {
  await approvedToolTurn(viaMsw);
  const skill = await viaMsw.skills.create({ name: 'Tone', instructions: 'Be brief.' });
  expect((await viaMsw.skills.get(skill.id)).name).toBe('Tone');

  server.use(
    http.get(`${BASE_URL}/api/v1/skills/:id`, () =>
      HttpResponse.json(
        {
          status: 'error',
          message: 'Skill archived by the override.',
          message_code: 'api_v1_not_found',
          data: null,
          meta: { request_id: '00000000-0000-4000-8000-000000000001' },
        },
        { status: 404 },
      ),
    ),
  );
  await expect(viaMsw.skills.get(skill.id)).rejects.toBeInstanceOf(NotFoundError);
  await expect(viaMsw.skills.get(skill.id)).rejects.toMatchObject({
    name: 'NotFoundError',
    status: 404,
    code: 'api_v1_not_found',
    requestId: '00000000-0000-4000-8000-000000000001',
  });
});

test("through msw: an override built with the package's errorResponse fails a send with a typed ConflictError", async () => {
  server.use(
    http.post(`${BASE_URL}/api/v1/chats/:chatId/messages`, () =>
      errorResponse({ status: 409, code: 'api_v1_chat_busy', data: { message_id: 7 } }),
    ),
  );
  const error: unknown = await viaMsw.turns.send(crypto.randomUUID(), { content: 'Hello' }).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ConflictError);
  const busy = error as ConflictError;
  expect(busy.name).toBe('ConflictError');
  expect(busy.is('api_v1_chat_busy') ? busy.data.message_id : undefined).toBe(7);
});
