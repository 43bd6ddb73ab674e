// A Vite app's page: the client against the in-process mock (no server), a streamed turn whose tool the
// user approves, shown as it arrives, then a typed 404. `#result` holds what the test asserts on, and
// `body[data-done]` says the page has finished, well or badly.
import { Client, NotFoundError } from 'convo-sdk';
import { createMock } from 'convo-sdk/mock';

const $ = (id: string): HTMLElement => document.getElementById(id) as HTMLElement;
const mock = createMock();
const client = new Client({ baseUrl: mock.url, token: 'mock-token', fetch: mock.fetch, maxRetries: 0 });

async function main(): Promise<Record<string, unknown>> {
  $('status').textContent = 'streaming';
  const asked: string[] = [];
  let updates = 0;
  const turn = await client.turns.run(
    crypto.randomUUID(),
    { content: 'Look it up. [[mock:tool_approval]] [[mock:words n=5]]' },
    {
      signal: AbortSignal.timeout(10_000),
      onToolApproval: (approval) => {
        asked.push(...approval.tools.map((tool) => `${tool.name}@${tool.server}`));
        $('approval').textContent = `${asked.join(', ')}: approved`;
        return true;
      },
      onText: (_delta, snapshot) => {
        updates += 1;
        $('text').textContent = snapshot;
      },
    },
  );
  $('status').textContent = turn.status;
  const missing = await client.skills.get(999_999).then(
    () => undefined,
    (error: unknown) => error,
  );
  return {
    status: turn.status,
    asked,
    called: turn.steps.flatMap((step) => step.tool_calls ?? []).map((call) => `${call.name}@${call.server}`),
    updates,
    shown: $('text').textContent === turn.content && turn.content.length > 0,
    notFound: missing instanceof NotFoundError,
    name: missing instanceof Error ? missing.name : String(missing),
    code: missing instanceof NotFoundError ? missing.code : undefined,
  };
}

main()
  .then(
    (result) => {
      $('result').textContent = JSON.stringify(result);
    },
    (error: unknown) => {
      $('status').textContent = 'failed';
      $('result').textContent = JSON.stringify({
        error: String(error instanceof Error ? error.stack : error),
      });
    },
  )
  .finally(() => {
    document.body.dataset.done = 'true';
  });
