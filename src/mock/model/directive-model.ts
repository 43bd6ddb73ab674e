import type { ToolCall } from '../../contract/turn.js';
import {
  type Directive,
  type DirectiveName,
  integerParam,
  parseScript,
  type Script,
  scriptIssues,
} from './directives.js';
import type { FakeModel, InteractionAnswer, ModelAction, ModelInput } from './model.js';
import { wordDeltas } from './words.js';

/** Deltas sent before `[[mock:failover]]` replaces the text. */
const FAILOVER_AFTER_DELTAS = 2;

/** What the answer becomes when a plan is rejected (mock-conventions.md: "a short answer"). */
const PLAN_REJECTED_ANSWER = 'Plan rejected.';

/** The connector an `auth_required` interaction names: the fixture connector that is not connected. */
const UNCONNECTED = { connector_id: 2, server: 'drive', display_name: 'Drive' } as const;

/**
 * The default fake model, scripted by the directives of mock-conventions.md and written with the same
 * protocol as a custom `FakeModel`. One turn:
 * 1. the reasoning step;
 * 2. `tool_approval`, `plan_approval`, `elicitation`, `auth_required`, `hang` and `error` act in the order
 *    they appear (a rejected plan ends the turn with `Plan rejected.`, an `error` fails it; with
 *    `idempotency_outcome_unknown` the answer is produced first, the stored outcome a repeat reads);
 * 3. the answer, word by word: `Mock answer: <content without directives>`, or `word1 … wordN` with
 *    `words n=N`; `slow ms=M` waits before each delta; `failover` replaces the text after two deltas with
 *    `(failover) ` + the text so far, and the deltas go on.
 *
 * A parameter past its bound (`DIRECTIVE_LIMITS`) is refused with 422 before the turn starts when this is
 * the mock's model; run from another model, it fails the turn (upstream_error) instead.
 */
export const directiveModel: FakeModel = async function* (input) {
  const script = parseScript(input.content);
  const [issue] = scriptIssues(script);
  if (issue) {
    yield { type: 'fail', code: 'upstream_error', message: issue.message };
    return;
  }
  yield { type: 'step' };
  const turn: ScriptedTurn = { input, script, answer: answerOf(script), tools: 0 };
  for (const directive of script.directives) {
    const effect = EFFECTS[directive.name];
    if ('act' in effect && (yield* effect.act(directive, turn))) return;
  }
  yield* answerText(turn.answer);
};

/** What the directives of one turn act on. */
interface ScriptedTurn {
  input: ModelInput;
  script: Script;
  /** The answer as the shaping directives make it. */
  answer: Answer;
  /** Tool approvals asked so far: each tool gets its own id. */
  tools: number;
}

/** The actions of a directive where it appears; its value is `true` when the turn ended there. */
type Acting = AsyncGenerator<ModelAction, boolean, InteractionAnswer | undefined>;

/** What a directive does: it acts where it appears, or shapes the answer (the last of a kind wins). */
type Effect =
  | { act: (directive: Directive, turn: ScriptedTurn) => Acting }
  | { shape: (answer: Answer, directive: Directive) => Answer };

/**
 * The effect of each directive: a row per name of `DIRECTIVE_NAMES`, so that a directive added there does
 * not compile until it does something (and `test/docs/directives.test.ts` fails until docs/mock.md
 * lists it).
 */
const EFFECTS: { readonly [K in DirectiveName]: Effect } = {
  words: { shape: (answer, directive) => ({ ...answer, words: integerParam(directive) }) },
  slow: { shape: (answer, directive) => ({ ...answer, slowMs: integerParam(directive) ?? 0 }) },
  failover: { shape: (answer) => ({ ...answer, failover: true }) },
  tool_approval: { act: toolApproval },
  plan_approval: { act: planApproval },
  elicitation: { act: elicitation },
  auth_required: { act: authRequired },
  hang: { act: hang },
  error: { act: fail },
};

async function* toolApproval(_: Directive, turn: ScriptedTurn): Acting {
  turn.tools += 1;
  const tool: ToolCall = {
    tool_use_id: `toolu_${turn.tools}`,
    name: 'search',
    server: 'github',
    input: { q: turn.script.text },
  };
  // auto: the tool runs without asking (stream or sync).
  if (turn.input.permission_mode === 'auto') {
    yield { type: 'tool', tool };
    return false;
  }
  const answer = yield { type: 'interaction', kind: 'tool_approval', payload: { tools: [tool] } };
  if (approved(answer, tool.tool_use_id)) yield { type: 'tool', tool };
  return false;
}

async function* planApproval(_: Directive, turn: ScriptedTurn): Acting {
  const answer = yield { type: 'interaction', kind: 'plan_approval', payload: plan(turn.script) };
  if (answer?.kind !== 'plan_approval' || answer.action !== 'reject') return false;
  yield* answerText({ ...PLAIN, text: PLAN_REJECTED_ANSWER });
  return true;
}

async function* elicitation(_: Directive, turn: ScriptedTurn): Acting {
  // action_required appears only in manual mode (section 6); an auto stream goes on without asking.
  // The sync channel asks anyway, which cuts the turn with interaction_in_auto_mode (the table).
  if (turn.input.channel === 'stream' && turn.input.permission_mode === 'auto') return false;
  yield {
    type: 'interaction',
    kind: 'elicitation',
    payload: {
      message: 'Which email address should I use?',
      mode: 'form',
      requested_schema: {
        type: 'object',
        properties: { email: { type: 'string' } },
        required: ['email'],
      },
    },
  };
  return false;
}

async function* authRequired(): Acting {
  // Whatever the answer (cancel-auth or expiry), the model goes on without the tool.
  yield {
    type: 'interaction',
    kind: 'auth_required',
    payload: { ...UNCONNECTED },
    resolution: 'connect_in_ui_or_cancel',
  };
  return false;
}

async function* hang(): Acting {
  yield { type: 'wait', ms: Number.POSITIVE_INFINITY };
  return false;
}

async function* fail(directive: Directive, turn: ScriptedTurn): Acting {
  const code = directive.params.get('code') ?? 'upstream_error';
  // Another execution closed this turn (6): it produced its answer, which a repeat reads.
  if (code === 'idempotency_outcome_unknown') yield* answerText(turn.answer);
  yield { type: 'fail', code };
  return true;
}

/** The answer of a turn and how it is delivered. */
interface Answer {
  /** The text, sent word by word. */
  text: string;
  /** With `words n=N`: N numbered words instead of the text. */
  words: number | undefined;
  /** Wait before each delta, in ms. */
  slowMs: number;
  /** Whether to replace the text after a few deltas. */
  failover: boolean;
}

const PLAIN: Answer = { text: '', words: undefined, slowMs: 0, failover: false };

/** The answer of `script`: `Mock answer: <text>`, as its shaping directives make it. */
function answerOf(script: Script): Answer {
  const text = script.text === '' ? 'Mock answer:' : `Mock answer: ${script.text}`;
  return script.directives.reduce(
    (answer, directive) => {
      const effect = EFFECTS[directive.name];
      return 'shape' in effect ? effect.shape(answer, directive) : answer;
    },
    { ...PLAIN, text },
  );
}

// The deltas are read one at a time: a long answer is never built whole before its first delta.
async function* answerText(answer: Answer): AsyncGenerator<ModelAction> {
  const { slowMs } = answer;
  let soFar = '';
  let sent = 0;
  let replaced = !answer.failover;
  const failover = function* (): Generator<ModelAction> {
    replaced = true;
    if (slowMs > 0) yield { type: 'wait', ms: slowMs };
    yield { type: 'replace', text: `(failover) ${soFar}` };
  };
  const deltas = answer.words === undefined ? wordDeltas(answer.text) : numberedWords(answer.words);
  for (const delta of deltas) {
    if (slowMs > 0) yield { type: 'wait', ms: slowMs };
    yield { type: 'text', text: delta };
    sent += 1;
    if (replaced) continue;
    soFar += delta;
    if (sent === FAILOVER_AFTER_DELTAS) yield* failover();
  }
  // A shorter answer is replaced at its end.
  if (!replaced && sent > 0) yield* failover();
}

/** `word1 `, `word2 `, ..., `wordN`: the deltas of `words n=N`, made as they are read. */
function* numberedWords(n: number): Generator<string> {
  for (let i = 1; i <= n; i++) yield i < n ? `word${i} ` : `word${i}`;
}

function plan(script: Script) {
  return {
    plan: {
      title: 'Mock plan',
      context: script.text,
      steps: [
        { step: 1, action: 'Search the handbook', tool: 'search' },
        { step: 2, action: 'Write the answer' },
      ],
      notes: 'A plan of the mock model.',
    },
  };
}

function approved(answer: InteractionAnswer | undefined, toolUseId: string): boolean {
  return (
    answer?.kind === 'tool_approval' &&
    answer.decisions.some((decision) => decision.tool_use_id === toolUseId && decision.approved)
  );
}
