import { expect, it } from 'vitest';
import { AbortError, type TurnStream } from '../../src/index.js';
import { trackResources, trackUnhandled, withDeadline } from '../support/leaks.js';
import { describeOnTargets } from '../support/mock-targets.js';

/**
 * A caller that stops reading a stream early (breaks out of its loop, aborts it, or aborts its signal)
 * frees the connection and every timer at once, while the turn itself goes on to its end (4.4).
 */

const SLOW = '[[mock:words n=40]] [[mock:slow ms=5]]';

const WAYS: Array<[string, (stream: TurnStream, controller: AbortController) => Promise<unknown>]> = [
  [
    'breaks out of its loop',
    async (stream) => {
      for await (const event of stream) if (event.type === 'delta') break;
    },
  ],
  [
    'calls stream.abort()',
    async (stream) => {
      for await (const event of stream) if (event.type === 'delta') stream.abort();
    },
  ],
  [
    'aborts its signal',
    async (stream, controller) => {
      for await (const event of stream) if (event.type === 'delta') controller.abort();
    },
  ],
];

describeOnTargets('stopping early', (target) => {
  for (const [way, stop] of WAYS) {
    it(`4.4 a caller that ${way} leaves no connection, timer or rejection behind; the turn completes`, async () => {
      await target.quiesce();
      const resources = trackResources();
      const unhandled = trackUnhandled();
      try {
        const controller = new AbortController();
        const chatId = crypto.randomUUID();
        const stream = target.client().turns.stream(chatId, { content: SLOW }, { signal: controller.signal });
        const outcome = await withDeadline(
          stop(stream, controller).then(
            () => 'stopped',
            (error: unknown) => error,
          ),
          15_000,
          way,
        );
        if (outcome !== 'stopped') expect(outcome).toBeInstanceOf(AbortError);
        await target.quiesce();
        await resources.settle();
        expect(target.mock.store.turns().find((turn) => turn.chat_id === chatId)?.status).toBe('completed');
        expect(unhandled.reasons).toEqual([]);
      } finally {
        resources.stop();
        unhandled.stop();
      }
    });
  }
});
