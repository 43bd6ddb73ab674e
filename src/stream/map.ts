import type { ActionRequiredPayload } from '../contract/events.js';
import type { Logger } from '../http/transport.js';
import type { Interaction } from '../interactions/kinds.js';
import { decode } from './decode.js';
import { decodeDelta } from './delta.js';
import type { TurnStreamEvent } from './events.js';
import { Fold, type TextChange } from './fold.js';
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
   * Turns the events of one connection, a chunk's worth at a time, into the caller's events; returns `true`
   * once a terminal event was yielded (reading stops there, and the rest is dropped), `false` when the
   * connection ended without one. Events before a damaged one are yielded before its error is thrown.
   */
  async *connection(batches: AsyncIterable<RawEvent[]>): AsyncGenerator<TurnStreamEvent[], boolean> {
    for await (const raws of batches) {
      const out: TurnStreamEvent[] = [];
      let i = 0;
      let ended = false;
      try {
        while (i < raws.length && !ended) ended = this.#map(raws[i++]!, out);
      } catch (error) {
        if (out.length > 0) yield out;
        throw error;
      }
      if (ended) this.dropUnread(raws.slice(i));
      if (out.length > 0) yield out;
      if (ended) return true;
    }
    return false;
  }

  /** Maps one wire event onto `out` (nothing, one or two events); `true` when it ended the turn. */
  #map(raw: RawEvent, out: TurnStreamEvent[]): boolean {
    // Nearly every event is a delta: no schema lookup, no wrapper.
    if (raw.event === 'message.delta') return this.#delta(decodeDelta(raw), out);
    const decoded = decode(raw);
    switch (decoded.name) {
      case 'message.delta':
        return this.#delta(decoded.payload, out);
      case 'ping':
        if (this.#pings) out.push({ type: 'ping', ts: decoded.payload.ts });
        return false;
      case 'message.start': {
        const { chat_id, message_id, request_id } = decoded.payload;
        if (!this.start) {
          this.start = { chat_id, message_id };
          out.push({ type: 'start', chat_id, message_id, request_id });
        } else if (this.start.message_id !== message_id) {
          this.#logger?.warn?.('a re-opened stream started another message', { message_id });
        }
        return false;
      }
      case 'message.step': {
        // One by one: a re-delivered outcome carries every stored step in one event. A step is the same
        // when its key, start and status are; a status that moved on is news.
        const steps = decoded.payload.steps.filter((s) =>
          this.#firstTime(`step:${s.key}|${s.timestamp}|${s.status}`),
        );
        if (steps.length > 0) out.push({ type: 'step', steps });
        return false;
      }
      case 'message.action_required':
        if (this.#firstTime(`action:${decoded.payload.action_id}`)) {
          const interaction = this.#interaction(decoded.payload, this.start?.chat_id ?? '');
          out.push({ type: 'action_required', interaction });
        }
        return false;
      case 'message.completed':
      case 'message.cancelled': {
        const change = this.fold.settle(decoded.payload.content);
        if (change)
          out.push({ type: 'delta', text: change.text, replace: change.replace, snapshot: this.fold.shown });
        const status = decoded.name === 'message.completed' ? 'completed' : 'cancelled';
        out.push({ type: status, turn: { ...decoded.payload, status } });
        return true;
      }
      case 'message.error':
        out.push({ type: 'error', error: decoded.payload });
        return true;
      case 'unknown':
        // A relayed recovery: its deltas were reconciled before the relay, so the fold goes on as is.
        if (decoded.event === RESUMED_EVENT) {
          out.push({ type: 'resumed', ...(decoded.data as { attempt: number; reason: string }) });
        } else {
          out.push({ type: 'unknown', event: decoded.event, data: decoded.data });
        }
        return false;
    }
  }

  #delta(delta: TextChange, out: TurnStreamEvent[]): false {
    const change = this.fold.apply(delta);
    if (change)
      out.push({ type: 'delta', text: change.text, replace: change.replace, snapshot: this.fold.shown });
    return false;
  }

  #firstTime(key: string): boolean {
    if (this.seen.has(key)) return false;
    this.seen.add(key);
    return true;
  }
}
