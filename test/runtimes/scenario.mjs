// What every row of the runtime matrix checks, shared by smoke.mjs (Node, Bun, Deno) and worker.mjs
// (workerd). Plain ESM JavaScript that uses only the client it is given, so it runs as is everywhere.
// Against a `convo-mock` server it creates a skill, then streams a turn that asks to run a tool, approves
// it, and checks the finished turn. Resolves the summary line; throws on the first failed check.

function check(condition, message) {
  if (!condition) throw new Error(message);
}

/** `seen` collects the turn's event types as they are read, for the caller's failure message. */
export async function smokeTurn(client, runtime, seen) {
  const started = performance.now();
  const skill = await client.skills.create({ name: `Smoke on ${runtime}`, instructions: 'Be brief.' });
  check(skill.id > 0 && skill.name === `Smoke on ${runtime}`, `unexpected skill ${JSON.stringify(skill)}`);

  const chat = await client.chats.create();
  const asked = [];
  let deltas = 0;
  let snapshot = '';
  const turn = await client.turns.run(
    chat.id,
    { content: '[[mock:tool_approval]] hello' },
    {
      signal: AbortSignal.timeout(20_000),
      onToolApproval: (interaction) => {
        asked.push(...interaction.tools.map((tool) => tool.name));
        return true;
      },
      onEvent: (event) => seen.push(event.type),
      onText: (_delta, text) => {
        deltas += 1;
        snapshot = text;
      },
    },
  );

  check(turn.status === 'completed', `turn status is ${turn.status}, not completed`);
  check(turn.content.trim().length > 0, 'the turn has no content');
  check(deltas > 0 && snapshot === turn.content, `streamed text ${JSON.stringify(snapshot)} != content`);
  check(asked.includes('search'), `no tool approval asked for search (asked: ${JSON.stringify(asked)})`);
  const called = turn.steps.flatMap((step) => step.tool_calls ?? []);
  check(
    called.some((tool) => tool.name === 'search' && tool.server === 'github'),
    `no step carries search@github in tool_calls: ${JSON.stringify(turn.steps)}`,
  );

  const ms = Math.round(performance.now() - started);
  return (
    `ok ${runtime}: skill ${skill.id} created; turn ${turn.id} completed with ${deltas} deltas ` +
    `(${turn.content.length} chars), tool search@github approved and called; ${ms} ms`
  );
}
