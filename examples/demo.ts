// npm run demo: the whole story against the embedded reference mock, over real HTTP, with no configuration.
import { Client } from 'convo-sdk';
import { startMockServer } from 'convo-sdk/mock';

const dim = (text: string) => (process.stdout.isTTY ? `\x1b[2m${text}\x1b[0m` : text);
const server = await startMockServer({ port: 0 });
console.log(dim(`reference mock listening on ${server.url}\n`));
const client = new Client({ baseUrl: server.url, token: 'mock-token' });

try {
  // 1. A skill: reusable instructions a turn can attach.
  const skill = await client.skills.create({
    name: 'Concise answers',
    instructions: 'Answer in at most three sentences. Cite {{library:1}} when it helps.',
  });
  console.log(`skill     #${skill.id} "${skill.name}" (${skill.level}, active: ${skill.is_active})`);
  const toggled = await client.skills.toggle(skill.id);
  console.log(`toggled   is_active ${skill.is_active} -> ${toggled.is_active}`);
  console.log(`listed    ${(await client.skills.list()).total} skill(s)`);

  // 2. A streamed turn in manual mode: deltas print as they arrive, and the model asks to run a tool.
  const chat = await client.chats.create({ name: 'Demo' });
  console.log(`\nchat      ${chat.id}`);
  process.stdout.write('turn      ');
  const turn = await client.turns.run(
    chat.id,
    {
      content:
        'Find the open issues about streaming and summarize them. [[mock:tool_approval]] [[mock:slow ms=60]]',
      attachments: { skill_ids: [skill.id], workspace_ids: [1] },
    },
    {
      onText: (delta, _snapshot, replace) => process.stdout.write(replace ? `\n${delta}` : delta),
      onToolApproval: (approval) => {
        const [tool] = approval.tools;
        const left = Math.round((approval.expiresAt - Date.now()) / 1000);
        process.stdout.write(
          dim(
            `[${tool?.server}/${tool?.name} wants to run with ${JSON.stringify(tool?.input)}: approved, ${left} s to spare]\n          `,
          ),
        );
        return true;
      },
    },
  );

  // 3. The saved turn: status, the tool that ran, sources and usage.
  const tools = turn.steps.flatMap((step) => step.tool_calls ?? []).map((call) => call.name);
  console.log(`\n\nstatus    ${turn.status} (message #${turn.id})`);
  console.log(`tools     ${tools.join(', ') || 'none'}`);
  console.log(
    `sources   ${turn.sources.map((s) => `library ${s.workspace_id} file ${s.file_id}`).join(', ')}`,
  );
  console.log(`usage     ${JSON.stringify(turn.usage)}`);

  console.log(`deleted   skill #${(await client.skills.delete(skill.id)).id}`);
} finally {
  await server.close();
}
