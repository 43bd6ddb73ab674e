import type { ActionRequiredPayload } from '../contract/events.js';
import type { Logger } from '../http/transport.js';
import type { Interaction } from '../interactions/kinds.js';
import { decode } from './decode.js';
import type { TurnStreamEvent } from './events.js';
import { Fold } from './fold.js';
import type { RawEvent } from './sse.js';

/** The relay's own event: a recovery, carried to a browser by `toReadableStream`. */
export const RESUMED_EVENT = 'convo.resumed';

/** What one stream of a turn keeps across its connections. */
export class StreamState {
  readonly fold = new Fold();
  /** `message.start`, once seen: a re-opened connection starts again, and is not shown twice. */
  start: { chat_id: string; message_id: number } | undefined;
  /** Interactions and steps already shown, so a re-delivered outcome does not show them twice. */
  readonly seen = new Set<string>();
  readonly #pings: boolean;
  readonly #logger: Logger | undefined;
  readonly #interaction: (raw: ActionRequiredPayload, chatId: string) => Interaction;

  constructor(options: {
    pings: boolean;
    logger: Logger | undefined;
    /** Makes the typed interaction of a `message.action_required`. */
    interaction: (raw: ActionRequiredPayload, chatId: string) => Interaction;
  }) {
    this.#pings = options.pings;
    this.#logger = options.logger;
    this.#interaction = options.interaction;
  }

  /** Logs what came after the terminal event: it is dropped (6, rule 1). */
  readonly dropUnread = (events: RawEvent[]): void => {
    for (const { event } of events)
      this.#logger?.warn?.('dropped an event after the terminal event', { event });
  };

  /**
   * Turns the events of one connection into the caller's events; returns `true` once a terminal event was
   * yielded (reading stops there), `false` when the connection ended without one.
   */
  async *connection(raws: AsyncIterable<RawEvent>): AsyncGenerator<TurnStreamEvent, boolean> {
    for await (const raw of raws) {
      const decoded = decode(raw);
      switch (decoded.name) {
        case 'message.delta': {
          const change = this.fold.apply(decoded.payload.text, decoded.payload.replace);
          if (change) yield { type: 'delta', ...change, snapshot: this.fold.shown };
          break;
        }
        case 'ping':
          if (this.#pings) yield { type: 'ping', ts: decoded.payload.ts };
          break;
        case 'message.start': {
          const { chat_id, message_id, request_id } = decoded.payload;
          if (!this.start) {
            this.start = { chat_id, message_id };
            yield { type: 'start', chat_id, message_id, request_id };
          } else if (this.start.message_id !== message_id) {
            this.#logger?.warn?.('a re-opened stream started another message', { message_id });
          }
          break;
        }
        case 'message.step':
          if (this.#firstTime(`step:${raw.data}`)) yield { type: 'step', steps: decoded.payload.steps };
          break;
        case 'message.action_required':
          if (this.#firstTime(`action:${decoded.payload.action_id}`)) {
            const interaction = this.#interaction(decoded.payload, this.start?.chat_id ?? '');
            yield { type: 'action_required', interaction };
          }
          break;
        case 'message.completed':
        case 'message.cancelled': {
          const change = this.fold.settle(decoded.payload.content);
          if (change) yield { type: 'delta', ...change, snapshot: this.fold.shown };
          const status = decoded.name === 'message.completed' ? 'completed' : 'cancelled';
          yield { type: status, turn: { ...decoded.payload, status } };
          return true;
        }
        case 'message.error':
          yield { type: 'error', error: decoded.payload };
          return true;
        case 'unknown':
          // A relayed recovery: its deltas were reconciled before the relay, so the fold goes on as is.
          if (decoded.event === RESUMED_EVENT) {
            yield { type: 'resumed', ...(decoded.data as { attempt: number; reason: string }) };
          } else {
            yield { type: 'unknown', event: decoded.event, data: decoded.data };
          }
          break;
      }
    }
    return false;
  }

  #firstTime(key: string): boolean {
    if (this.seen.has(key)) return false;
    this.seen.add(key);
    return true;
  }
}
