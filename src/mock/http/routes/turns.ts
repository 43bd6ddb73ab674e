import type { TurnRecord } from '../../state/records.js';
import { EventLog } from '../../turns/event-log.js';
import { replayEvents, syncAnswer } from '../../turns/outcomes.js';
import { faultAfter } from '../faults.js';
import type { Handlers } from '../handler.js';
import { type SendContext, type SendOutcome, startSend } from '../send.js';
import { sseResponse } from '../sse.js';

/**
 * The sends: `POST /api/v1/chats/{chat_id}/messages` (4.3) blocks until the turn is saved;
 * `POST /api/v1/chats/{chat_id}/messages/stream` (4.4) answers server-sent events. Both share checks, keys
 * and runs (send.ts); they differ in how the outcome is delivered.
 */
export function turnHandlers(context: SendContext) {
  return {
    'turns.send': async (c) => {
      const request = c.req.raw;
      const outcome = await startSend(context, c.get('credential'), request, c.req.param('chat_id'), 'sync');
      const turn = await finishedTurn(outcome);
      const after = await faultAfter(context.faults, 'send', request);
      return after ?? syncAnswer(turn, (outcome.kind === 'run' && outcome.live.outcomeUnknown) || turn.error);
    },

    'turns.stream': async (c) => {
      const request = c.req.raw;
      const outcome = await startSend(
        context,
        c.get('credential'),
        request,
        c.req.param('chat_id'),
        'stream',
      );
      const after = await faultAfter(context.faults, 'stream', request, finishedTurn(outcome));
      if (after) return after;
      // A replay re-delivers the stored outcome; a new turn is followed from its message.start.
      const log =
        outcome.kind === 'run'
          ? outcome.live.log
          : EventLog.of(replayEvents(outcome.turn, crypto.randomUUID()));
      const { store, faults } = context;
      return sseResponse(log, {
        clock: store.clock,
        pingMs: store.settings.pingMs,
        fault: faults.take('stream', request, 'stream'),
      });
    },
  } satisfies Partial<Handlers>;
}

/** The stored turn of an outcome, once it is saved. */
async function finishedTurn(outcome: SendOutcome): Promise<TurnRecord> {
  if (outcome.kind === 'replay') return outcome.turn;
  await outcome.live.finished;
  return outcome.live.turn;
}
