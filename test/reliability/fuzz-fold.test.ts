import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { type RelayedStreamEvent, RelayedTurnStream, type TurnStreamEvent } from '../../src/index.js';
import type { FakeModel, InteractionAnswer, ModelAction } from '../../src/mock/index.js';
import { collect } from '../support/collect.js';
import { itFuzzes } from '../support/fuzz.js';
import { useTarget } from '../support/mock-targets.js';
import {
  bodyOf,
  foldOps,
  type Op,
  opsArb,
  printed,
  sseBytes,
  textArb,
  turnWire,
} from '../support/turn-wire.js';

const TYPE_OF: Record<Op['t'], RelayedStreamEvent['type']> = {
  delta: 'delta',
  step: 'step',
  ping: 'ping',
  action: 'action_required',
  unknown: 'unknown',
};

describe('fuzz: folding deltas, replaces, steps, pings and interactions', () => {
  itFuzzes(
    '6 every snapshot is the model of the text so far; the terminal content is authoritative',
    'fold',
    2,
    fc.asyncProperty(opsArb, fc.option(textArb, { nil: undefined }), async (ops, divergent) => {
      const model = foldOps(ops);
      // Sometimes the terminal event says something else than the deltas: it wins, in one change.
      const content = divergent === undefined ? model : divergent;
      const wire = turnWire(ops, { kind: 'completed', content });
      const stream = RelayedTurnStream.fromReadableStream(bodyOf([sseBytes(wire)]), {
        pings: true,
      });
      const events = await collect(stream);

      // One event per op, in order, between the start and the end.
      const middle = events
        .slice(1, content === model ? -1 : undefined)
        .filter((e) => e.type !== 'completed');
      const expectedTypes = ops.map((op) => TYPE_OF[op.t]);
      expect(middle.slice(0, ops.length).map((e) => e.type)).toEqual(expectedTypes);
      let text = '';
      ops.forEach((op, i) => {
        if (op.t !== 'delta') return;
        text = op.replace ? op.text : text + op.text;
        expect((middle[i] as Extract<RelayedStreamEvent, { type: 'delta' }>).snapshot).toBe(text);
      });
      // A divergent terminal content adds at most one corrective delta.
      expect(events.length - 2 - ops.length).toBe(content === model ? 0 : 1);
      expect(printed(events)).toBe(content);
      expect(stream.text).toBe(content);
      expect((await stream.finalTurn()).content).toBe(content);
    }),
  );
});

/** What a random fake model does. */
type Step =
  | { t: 'text'; text: string }
  | { t: 'replace'; text: string }
  | { t: 'step' }
  | { t: 'wait' }
  | { t: 'tool'; approve: boolean };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ t: fc.constant('text' as const), text: textArb }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('replace' as const), text: textArb }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('step' as const) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('wait' as const) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('tool' as const), approve: fc.boolean() }) },
);

function modelOf(steps: readonly Step[]): FakeModel {
  return async function* (): AsyncGenerator<ModelAction, void, InteractionAnswer | undefined> {
    let n = 0;
    for (const step of steps) {
      switch (step.t) {
        case 'text':
        case 'replace':
          yield { type: step.t, text: step.text };
          break;
        case 'step':
          yield { type: 'step' };
          break;
        case 'wait':
          yield { type: 'wait', ms: 0 };
          break;
        case 'tool': {
          const tool = { tool_use_id: `toolu_${++n}`, name: 'search', server: 'github', input: { n } };
          const answer = yield { type: 'interaction', kind: 'tool_approval', payload: { tools: [tool] } };
          if (answer?.kind === 'tool_approval' && answer.decisions.some((d) => d.approved)) {
            yield { type: 'tool', tool };
          }
          break;
        }
      }
    }
  };
}

describe('fuzz: a random fake model through the mock and the client', () => {
  const target = useTarget();

  itFuzzes(
    '4.4, 4.5, 6 the caller, the terminal event and the saved turn all hold the model’s text, each character once',
    'mock-fold',
    10,
    fc.asyncProperty(fc.array(stepArb, { maxLength: 16 }), async (steps) => {
      // A fresh state per run: what is checked below reads the whole store.
      target.mock.reset();
      target.mock.setModel(modelOf(steps));
      const client = target.client();
      const chatId = crypto.randomUUID();
      const approvals = steps.flatMap((step) => (step.t === 'tool' ? [step.approve] : []));
      let asked = 0;
      const events: TurnStreamEvent[] = [];
      const turn = await client.turns.run(
        chatId,
        { content: 'fuzz' },
        { onToolApproval: () => approvals[asked++] ?? false, onEvent: (event) => events.push(event) },
      );
      const model = steps.reduce(
        (text, step) => (step.t === 'text' ? text + step.text : step.t === 'replace' ? step.text : text),
        '',
      );
      expect(turn.status).toBe('completed');
      expect(turn.content).toBe(model);
      expect(printed(events)).toBe(model);
      expect(asked).toBe(approvals.length);
      const stored = target.mock.store.turns().find((t) => t.chat_id === chatId);
      expect(stored?.content).toBe(model);
      const toolsRun = stored?.steps.filter((s) => s.tool_calls?.length).length;
      expect(toolsRun).toBe(approvals.filter(Boolean).length);
    }),
  );
});
