import type { ActionRequiredPayload } from '../contract/events.js';
import type { StreamEvent } from './events.js';
import { RESUMED_EVENT } from './map.js';

const encoder = new TextEncoder();

/** An interaction that can be relayed: it keeps the payload it came with. */
export interface Relayable {
  readonly raw: ActionRequiredPayload;
}

/** The wire name and payload of an event, as the service sends it (and `convo.resumed` for a recovery). */
function toWire(event: StreamEvent<Relayable>): [string, unknown] {
  switch (event.type) {
    case 'start': {
      const { type: _, ...payload } = event;
      return ['message.start', payload];
    }
    case 'delta':
      return ['message.delta', { text: event.text, replace: event.replace }];
    case 'step':
      return ['message.step', { steps: event.steps }];
    case 'action_required':
      return ['message.action_required', event.interaction.raw];
    case 'ping':
      return ['ping', { ts: event.ts }];
    case 'completed':
    case 'cancelled': {
      const { status: _, ...turn } = event.turn;
      return [`message.${event.type}`, turn];
    }
    case 'error':
      return ['message.error', event.error];
    case 'resumed':
      return [RESUMED_EVENT, { attempt: event.attempt, reason: event.reason }];
    case 'off_schema':
    case 'unknown':
      return [event.event, event.data];
  }
}

/**
 * Encodes what a reader sees (the deltas after reconciliation, not the raw ones) as SSE, so that a browser
 * reading it with `RelayedTurnStream.fromReadableStream` folds exactly the same text. Cancelling it calls
 * `stop`, which ends the reading below at once, and closes `events` without waiting on it.
 */
export function encodeEvents(
  events: AsyncIterable<StreamEvent<Relayable>>,
  stop: (reason?: unknown) => void,
): ReadableStream<Uint8Array> {
  const iterator = events[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await iterator.next();
        if (next.done) return controller.close();
        const [name, payload] = toWire(next.value);
        controller.enqueue(encoder.encode(`event: ${name}\ndata: ${JSON.stringify(payload)}\n\n`));
      } catch (error) {
        controller.error(error);
      }
    },
    cancel(reason) {
      // Not awaited: a pull may be waiting on the connection, and `return()` runs only after it.
      stop(reason);
      iterator.return?.(reason)?.catch(() => {});
    },
  });
}
