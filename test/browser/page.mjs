// The page script of the browser test, bundled by esbuild (platform browser) from the installed tarball:
// it imports `convo-sdk` exactly as an integrator's front end does. It streams a turn from a `convo-mock`
// server on another origin (`?base=URL&token=TOKEN`), approves the tool the turn asks for, and shows the
// text as it arrives. `body[data-done]` tells the test the turn has ended, well or badly.
import { Client } from 'convo-sdk';

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);

function show(status) {
  $('status').textContent = status;
  document.body.dataset.status = status;
}

async function main() {
  const baseUrl = params.get('base');
  $('origin').textContent = location.origin;
  $('service').textContent = baseUrl;
  const client = new Client({ baseUrl, token: params.get('token') });

  show('streaming');
  const chat = await client.chats.create();
  let deltas = 0;
  const turn = await client.turns.run(
    chat.id,
    { content: '[[mock:tool_approval]] hello' },
    {
      signal: AbortSignal.timeout(20_000),
      onToolApproval: (interaction) => {
        const tools = interaction.tools.map((tool) => `${tool.name}@${tool.server}`).join(', ');
        $('approval').textContent = `${tools}: approved`;
        return true;
      },
      onText: (_delta, snapshot) => {
        deltas += 1;
        $('deltas').textContent = String(deltas);
        $('text').textContent = snapshot;
      },
    },
  );
  const called = turn.steps.flatMap((step) => step.tool_calls ?? []);
  $('called').textContent = called.map((tool) => `${tool.name}@${tool.server}`).join(', ') || 'none';
  $('text').dataset.content = turn.content;
  show(turn.status);
}

main()
  .catch((error) => {
    show('failed');
    $('error').textContent = String(error?.stack ?? error);
  })
  .finally(() => {
    document.body.dataset.done = 'true';
  });
