// The smoke program of the runtime matrix. Plain ESM JavaScript, so that Node, Bun and Deno all run it as
// is, from a project that installed the packed tarball: it imports `convo-sdk` exactly as an integrator
// does. The client reads CONVO_BASE_URL and CONVO_API_TOKEN itself. Against a `convo-mock` server it
// creates a skill, then streams a turn that asks to run a tool, approves it, and checks the finished turn.
// Prints one summary line; exits non-zero on any failure.
import { Client } from 'convo-sdk';

const runtime = globalThis.Deno
  ? `deno ${globalThis.Deno.version.deno}`
  : globalThis.Bun
    ? `bun ${globalThis.Bun.version}`
    : `node ${process.versions.node}`;
const started = performance.now();
// The turn's events as they were read, for the failure message.
const seen = [];
const progress = () => `events read: ${seen.join(' ') || 'none'}`;

function check(condition, message) {
  if (!condition) throw new Error(message);
}

// A bounded run: the turn is cut after 20 s, and the program fails after 30 s whatever holds it.
const deadline = setTimeout(() => {
  console.error(`FAIL ${runtime}: no result within 30 s; ${progress()}`);
  process.exit(1);
}, 30_000);

try {
  for (const name of ['CONVO_BASE_URL', 'CONVO_API_TOKEN']) check(process.env[name], `${name} is not set`);
  const client = new Client();

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
  console.log(
    `ok ${runtime}: skill ${skill.id} created; turn ${turn.id} completed with ${deltas} deltas ` +
      `(${turn.content.length} chars), tool search@github approved and called; ${ms} ms`,
  );
} catch (error) {
  console.error(`FAIL ${runtime}: ${progress()}\n${error?.stack ?? error}`);
  process.exitCode = 1;
} finally {
  clearTimeout(deadline);
}
