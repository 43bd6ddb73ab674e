import type { ToolCall } from '../../contract/turn.js';
import { type Directive, integerParam, parseScript, type Script, scriptIssues } from './directives.js';
import type { FakeModel, InteractionAnswer, ModelAction } from './model.js';
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
  let tools = 0;
  for (const directive of script.directives) {
    switch (directive.name) {
      case 'tool_approval': {
        tools += 1;
        const tool: ToolCall = {
          tool_use_id: `toolu_${tools}`,
          name: 'search',
          server: 'github',
          input: { q: script.text },
        };
        // auto: the tool runs without asking (stream or sync).
        if (input.permission_mode === 'auto') {
          yield { type: 'tool', tool };
          break;
        }
        const answer = yield { type: 'interaction', kind: 'tool_approval', payload: { tools: [tool] } };
        if (approved(answer, tool.tool_use_id)) yield { type: 'tool', tool };
        break;
      }
      case 'plan_approval': {
        const answer = yield { type: 'interaction', kind: 'plan_approval', payload: plan(script) };
        if (answer?.kind === 'plan_approval' && answer.action === 'reject') {
          yield* answerText(wordDeltas(PLAN_REJECTED_ANSWER), noStyle);
          return;
        }
        break;
      }
      case 'elicitation':
        // action_required appears only in manual mode (section 6); an auto stream goes on without asking.
        // The sync channel asks anyway, which cuts the turn with interaction_in_auto_mode (the table).
        if (input.channel === 'stream' && input.permission_mode === 'auto') break;
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
        break;
      case 'auth_required':
        // Whatever the answer (cancel-auth or expiry), the model goes on without the tool.
        yield {
          type: 'interaction',
          kind: 'auth_required',
          payload: { ...UNCONNECTED },
          resolution: 'connect_in_ui_or_cancel',
        };
        break;
      case 'hang':
        yield { type: 'wait', ms: Number.POSITIVE_INFINITY };
        break;
      case 'error': {
        const code = directive.params.get('code') ?? 'upstream_error';
        // Another execution closed this turn (6): it produced its answer, which a repeat reads.
        if (code === 'idempotency_outcome_unknown') yield* answerText(answerOf(script), styleOf(script));
        yield { type: 'fail', code };
        return;
      }
      default:
        // words, slow and failover shape the answer below.
        break;
    }
  }
  yield* answerText(answerOf(script), styleOf(script));
};

/** How the answer is delivered. */
interface Style {
  /** Wait before each delta, in ms. */
  slowMs: number;
  /** Whether to replace the text after a few deltas. */
  failover: boolean;
}

const noStyle: Style = { slowMs: 0, failover: false };

// The deltas are read one at a time: a long answer is never built whole before its first delta.
async function* answerText(deltas: Iterable<string>, style: Style): AsyncGenerator<ModelAction> {
  let soFar = '';
  let sent = 0;
  let replaced = !style.failover;
  const failover = function* (): Generator<ModelAction> {
    replaced = true;
    if (style.slowMs > 0) yield { type: 'wait', ms: style.slowMs };
    yield { type: 'replace', text: `(failover) ${soFar}` };
  };
  for (const delta of deltas) {
    if (style.slowMs > 0) yield { type: 'wait', ms: style.slowMs };
    yield { type: 'text', text: delta };
    sent += 1;
    if (replaced) continue;
    soFar += delta;
    if (sent === FAILOVER_AFTER_DELTAS) yield* failover();
  }
  // A shorter answer is replaced at its end.
  if (!replaced && sent > 0) yield* failover();
}

function answerOf(script: Script): Iterable<string> {
  const words = last(script.directives, 'words');
  const n = words ? integerParam(words) : undefined;
  if (n !== undefined) return numberedWords(n);
  return wordDeltas(script.text === '' ? 'Mock answer:' : `Mock answer: ${script.text}`);
}

/** `word1 `, `word2 `, ..., `wordN`: the deltas of `words n=N`, made as they are read. */
function* numberedWords(n: number): Generator<string> {
  for (let i = 1; i <= n; i++) yield i < n ? `word${i} ` : `word${i}`;
}

function styleOf(script: Script): Style {
  const slow = last(script.directives, 'slow');
  return {
    slowMs: (slow && integerParam(slow)) ?? 0,
    failover: script.directives.some((directive) => directive.name === 'failover'),
  };
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

function last(directives: readonly Directive[], name: Directive['name']): Directive | undefined {
  return directives.filter((directive) => directive.name === name).at(-1);
}
