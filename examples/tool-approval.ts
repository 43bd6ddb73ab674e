// The handler loop: stream a turn in manual mode and decide on each tool it wants to run.
import { Client } from 'convo-sdk';

const client = new Client();

const turn = await client.turns.run(
  crypto.randomUUID(),
  { content: 'Search the issues for flaky tests. [[mock:tool_approval]]' },
  {
    onToolApproval: async (approval) => {
      for (const tool of approval.tools) console.log(`approving ${tool.server}/${tool.name}`, tool.input);
      return true; // or false to reject all, or { [tool_use_id]: boolean } per tool
    },
    onText: (delta, _snapshot, replace) => process.stdout.write(replace ? `\n${delta}` : delta),
  },
);

const tools = turn.steps.flatMap((step) => step.tool_calls ?? []).map((call) => call.name);
console.log(`\n${turn.status}; tools run: ${tools.join(', ') || 'none'}`);
