import type { ToolCall } from '../../contract/turn.js';
import { type Directive, intParam, parseScript, type Script } from './directives.js';
import type { FakeModel, InteractionAnswer, ModelAction } from './model.js';
import { wordDeltas } from './words.js';

/** Deltas sent before `[[mock:failover]]` replaces the text. */
export const FAILOVER_AFTER_DELTAS = 2;

/** What the answer becomes when a plan is rejected (mock-conventions.md: "a short answer"). */
export const PLAN_REJECTED_ANSWER = 'Plan rejected.';

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
 */
export const directiveModel: FakeModel = async function* (input) {
  const script = parseScript(input.content);
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
          yield* answerText(PLAN_REJECTED_ANSWER, noStyle);
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

async function* answerText(text: string, style: Style): AsyncGenerator<ModelAction> {
  const deltas = wordDeltas(text);
  let soFar = '';
  let replaced = !style.failover;
  for (const [index, delta] of deltas.entries()) {
    if (style.slowMs > 0) yield { type: 'wait', ms: style.slowMs };
    yield { type: 'text', text: delta };
    soFar += delta;
    // After a few deltas, or at the end of a shorter answer.
    if (!replaced && (index + 1 === FAILOVER_AFTER_DELTAS || index + 1 === deltas.length)) {
      replaced = true;
      if (style.slowMs > 0) yield { type: 'wait', ms: style.slowMs };
      yield { type: 'replace', text: `(failover) ${soFar}` };
    }
  }
}

function answerOf(script: Script): string {
  const words = last(script.directives, 'words');
  const n = words ? intParam(words, 'n') : undefined;
  if (n !== undefined) return Array.from({ length: n }, (_, i) => `word${i + 1}`).join(' ');
  return script.text === '' ? 'Mock answer:' : `Mock answer: ${script.text}`;
}

function styleOf(script: Script): Style {
  const slow = last(script.directives, 'slow');
  return {
    slowMs: (slow && intParam(slow, 'ms')) ?? 0,
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
