import { type Step, StepSchema, ToolCallSchema } from '../../contract/turn.js';
import type { InteractionAnswer, ModelAction } from '../model/model.js';
import { checkedOutput } from '../model/model-checks.js';
import type { MockStore } from '../state/store.js';
import { pause } from '../time/clock.js';
import type { InteractionDesk } from './asking.js';
import { Failed, type Live, stopOf, type TurnStart } from './live.js';
import { turnFailure } from './outcomes.js';

/**
 * Applies one action of the fake model to its running turn: the record and the events change together.
 * Returns what goes back to the model (an interaction's answer).
 */
export async function applyAction(
  store: MockStore,
  desk: InteractionDesk,
  live: Live,
  start: TurnStart,
  action: ModelAction,
): Promise<InteractionAnswer | undefined> {
  const { turn, log } = live;
  const { signal } = live.controller;
  switch (action.type) {
    case 'text':
      if (action.text === '') return undefined;
      turn.content += action.text;
      log.push({ event: 'message.delta', data: { text: action.text, replace: false } });
      return undefined;
    case 'replace':
      turn.content = action.text;
      log.push({ event: 'message.delta', data: { text: action.text, replace: true } });
      return undefined;
    case 'step':
      addStep(live, { ...reasoningStep(store, live), ...action.step });
      return undefined;
    case 'tool': {
      const tool = checkedOutput(ToolCallSchema, action.tool, 'tool');
      addStep(live, {
        key: 'tool',
        label: `Running ${tool.name}`,
        label_code: 'tool_call',
        status: 'completed',
        timestamp: store.timestamp(),
        duration: 0,
        tool_calls: [structuredClone(tool)],
      });
      return undefined;
    }
    case 'interaction':
      // 4.3: the synchronous channel cannot answer; the turn is cut.
      if (start.channel === 'sync') {
        throw new Failed(
          turnFailure(
            'interaction_in_auto_mode',
            `The turn asked for an interaction (${action.kind}); use the streaming send.`,
            false,
            start.request_id,
          ),
        );
      }
      return desk.ask(live, start, action);
    case 'fail':
      throw new Failed(
        turnFailure(
          action.code,
          action.message ?? `The turn failed (${action.code}).`,
          action.retryable ?? false,
          start.request_id,
        ),
      );
    case 'wait':
      await pause(store.clock, action.ms, signal);
      if (signal.aborted) throw stopOf(signal);
      return undefined;
    default:
      throw new Error(`unknown action ${JSON.stringify(action)}`);
  }
}

/** The default step: reasoning, lasting since the turn started. */
function reasoningStep(store: MockStore, live: Live): Step {
  const now = store.clock.now();
  return {
    key: 'reasoning',
    label: 'Thinking',
    label_code: 'reasoning',
    status: 'completed',
    timestamp: new Date(now).toISOString(),
    duration: Math.max(0, Math.round(now - live.startedAt)),
  };
}

function addStep(live: Live, step: unknown): void {
  const valid = checkedOutput(StepSchema, step, 'step');
  live.turn.steps.push(valid);
  live.log.push({ event: 'message.step', data: { steps: [structuredClone(valid)] } });
}
