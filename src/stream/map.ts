import { isRereadCode } from '../contract/codes.js';
import {
  type ActionRequiredPayload,
  type EVENTS,
  type EventName,
  type EventPayloads,
  isTerminalEvent,
} from '../contract/events.js';
import { NO_REDACTION, type Redactor, redactJson } from '../contract/redact.js';
import { StreamBreak, UnreadableTerminalError } from '../errors/index.js';
import type { Logger } from '../http/transport.js';
import { decode, type HandlersOf, type KnownEvent } from './decode.js';
import { decodeDelta } from './delta.js';
import type { StreamEvent } from './events.js';
import { Fold, type TextChange } from './fold.js';
import type { RawEvent } from './sse.js';

/** The relay's own event: a recovery, carried to a browser by `toReadableStream`. */
export const RESUMED_EVENT = 'convo.resumed';

/** One handler per event of the contract, given the state it shows the event for (`true`: the turn ended). */
type Handlers = HandlersOf<
  typeof EVENTS,
  [out: StreamEvent<unknown>[], state: StreamState<unknown>],
  boolean
>;

/** How a `StreamState` is set up. */
export interface StreamStateOptions<I> {
  /** Yield `ping` events too. */
  pings: boolean;
  logger: Logger | undefined;
  /** Makes the interaction of a `message.action_required` (injected: this layer knows no answers). */
  interaction: (raw: ActionRequiredPayload, chatId: string) => I;
  /**
   * How many times a `message.error` that says to read the outcome again (6) re-opens the stream with
   * its key instead of ending it (default 0: the error ends the stream).
   */
  rereads?: number | undefined;
  /** Masks the client's token in what the service says of a failure (default: nothing masked). */
  redact?: Redactor | undefined;
}

/** What one stream of a turn keeps across its connections. */
export class StreamState<I> {
  readonly fold = new Fold();
  /** `message.start`, once seen: a re-opened connection starts again, and is not shown twice. */
  start: { chat_id: string; message_id: number } | undefined;
  /** Interactions already shown, so a re-delivered outcome does not show them twice (made by the first). */
  #actions: Set<string> | undefined;
  /**
   * Each step (and off-schema event) shown, counted: a replay re-sends every stored one, two genuine twins
   * included. Made by the first, as `#replay` by the first re-open: most turns have neither.
   */
  #shown: Map<string, number> | undefined;
  /** What the current connection may still replay of what was shown before it (none on the first). */
  #replay: Map<string, number> | undefined;
  #rereads: number;
  readonly #pings: boolean;
  readonly #logger: Logger | undefined;
  readonly #interaction: (raw: ActionRequiredPayload, chatId: string) => I;
  readonly #redact: Redactor;

  constructor(options: StreamStateOptions<I>) {
    this.#redact = options.redact ?? NO_REDACTION;
    this.#pings = options.pings;
    this.#logger = options.logger;
    this.#interaction = options.interaction;
    this.#rereads = options.rereads ?? 0;
  }

  /** A new connection begins: it re-sends the stored outcome from the beginning. */
  restart(): void {
    this.fold.restart();
    this.#replay = this.#shown && new Map(this.#shown);
  }

  /**
   * Maps the events of one chunk of a connection onto `out` (the caller's events); returns `true` once a
   * terminal event was mapped (reading stops there, and the rest is dropped: 6, rule 1). Events mapped
   * before a failing one stay in `out`, for the caller to hand out before the error. Bound, so that the
   * reader can call it as it is.
   */
  readonly take = (raws: RawEvent[], out: StreamEvent<I>[]): boolean => {
    for (let i = 0; i < raws.length; i++) {
      if (!this.#map(raws[i]!, out)) continue;
      for (let j = i + 1; j < raws.length; j++)
        this.#logger?.warn?.('dropped an event after the terminal event', { event: raws[j]!.event });
      return true;
    }
    return false;
  };

  /** Maps one wire event onto `out` (nothing, one or two events); `true` when it ended the turn. */
  #map(raw: RawEvent, out: StreamEvent<I>[]): boolean {
    // Nearly every event is a delta: no schema lookup, no wrapper.
    if (raw.event === 'message.delta') {
      const delta = decodeDelta(raw);
      if (delta) return this.#delta(delta, out);
    }
    const decoded = decode(raw);
    if (decoded.name === 'off_schema') return this.#offSchema(raw, decoded.data, decoded.problem, out);
    if (decoded.name === 'unknown') {
      // A relayed recovery: its deltas were reconciled before the relay, so the fold goes on as is.
      if (decoded.event === RESUMED_EVENT) {
        out.push({ type: 'resumed', ...(decoded.data as { attempt: number; reason: string }) });
      } else {
        const redact = this.#redact;
        out.push({ type: 'unknown', event: redact(decoded.event), data: redactJson(decoded.data, redact) });
      }
      return false;
    }
    return this.#handle(decoded, out);
  }

  #handle<K extends EventName>(event: KnownEvent<K>, out: StreamEvent<I>[]): boolean {
    return (StreamState.#handlers[event.name] as Handlers[K])(
      event.payload,
      out as StreamEvent<unknown>[],
      this as StreamState<unknown>,
    );
  }

  /**
   * How each event of the contract is shown: `true` when it ended the turn. One table for every stream
   * (a stream of its own would hold a closure per event for as long as it is open).
   */
  static readonly #handlers: Handlers = {
    'message.delta': (payload, out, state) => state.#delta(payload, out),
    ping: ({ ts }, out, state) => {
      if (state.#pings) out.push({ type: 'ping', ts });
      return false;
    },
    'message.start': ({ chat_id, message_id, request_id }, out, state) => {
      if (!state.start) {
        state.start = { chat_id, message_id };
        out.push({ type: 'start', chat_id, message_id, request_id });
      } else if (state.start.message_id !== message_id) {
        state.#logger?.warn?.('a re-opened stream started another message', { message_id });
      }
      return false;
    },
    'message.step': (payload, out, state) => {
      const steps = payload.steps.filter((s) => state.#fresh(`step:${s.key}|${s.timestamp}|${s.status}`));
      if (steps.length > 0) out.push({ type: 'step', steps });
      return false;
    },
    'message.action_required': (payload, out, state) => {
      state.#actions ??= new Set();
      if (!state.#actions.has(payload.action_id)) {
        state.#actions.add(payload.action_id);
        const interaction = state.#interaction(payload, state.start?.chat_id ?? '');
        out.push({ type: 'action_required', interaction });
      }
      return false;
    },
    'message.completed': (turn, out, state) => state.#finished('completed', turn, out),
    'message.cancelled': (turn, out, state) => state.#finished('cancelled', turn, out),
    'message.error': (error, out, state) => {
      if (isRereadCode(error.code) && state.#rereads > 0) {
        state.#rereads--;
        throw new StreamBreak(`message.error ${error.code}: reading the stored outcome again`);
      }
      // Masked here, at the source: the event, the `TurnError`, a relay and UI chunks all quote it.
      out.push({ type: 'error', error: redactJson(error, state.#redact) as typeof error });
      return true;
    },
  };

  /** The saved turn: the text settles on its content, then the turn ends. */
  #finished(
    status: 'completed' | 'cancelled',
    turn: EventPayloads['message.completed'],
    out: StreamEvent<I>[],
  ): true {
    const change = this.fold.settle(turn.content);
    if (change)
      out.push({ type: 'delta', text: change.text, replace: change.replace, snapshot: this.fold.shown });
    out.push({ type: status, turn: { ...turn, status } });
    return true;
  }

  /** A known event off the contract is passed on as it came; a terminal one ends the stream with an error. */
  #offSchema(raw: RawEvent, received: unknown, said: string, out: StreamEvent<I>[]): false {
    const { event } = raw;
    // The problem may quote a value received.
    const problem = this.#redact(said);
    const data = redactJson(received, this.#redact);
    if (isTerminalEvent(event)) {
      throw new UnreadableTerminalError(event, problem);
    }
    if (!this.#fresh(`off:${event}|${raw.data}`)) return false;
    this.#logger?.warn?.('an event does not match the contract; passed on as off_schema', { event, problem });
    out.push({ type: 'off_schema', event, data, problem });
    return false;
  }

  #delta(delta: TextChange, out: StreamEvent<I>[]): false {
    const change = this.fold.apply(delta);
    if (change)
      out.push({ type: 'delta', text: change.text, replace: change.replace, snapshot: this.fold.shown });
    return false;
  }

  /**
   * Whether a step (or an off-schema event) is news. A step is the same when its key, start and status are
   * (a status that moved on is news); only a re-opened connection repeats one, so only there is one already
   * shown dropped, as many times as it was shown.
   */
  #fresh(key: string): boolean {
    const replayed = this.#replay?.get(key) ?? 0;
    if (replayed > 0) {
      this.#replay!.set(key, replayed - 1);
      return false;
    }
    this.#shown ??= new Map();
    this.#shown.set(key, (this.#shown.get(key) ?? 0) + 1);
    return true;
  }
}
