import {
  type EventName,
  TERMINAL_EVENTS,
  type TerminalEventName,
  type TurnFailure,
} from '../contract/events.js';
import type { Step, Turn } from '../contract/turn.js';

/** `message.start`: the turn began; `message_id` finds it later in the message listing. */
export interface StartEvent {
  type: 'start';
  chat_id: string;
  message_id: number;
  request_id: string;
}

/** New text: `text` is a suffix, or with `replace` the full text; `snapshot` is the whole text after it. */
export interface DeltaEvent {
  type: 'delta';
  text: string;
  replace: boolean;
  snapshot: string;
}

/** Reasoning or tools progressed (informational). */
export interface StepEvent {
  type: 'step';
  steps: Step[];
}

/** The turn waits for an answer: `interaction` is typed by `kind` (live streams: it answers itself). */
export interface ActionRequiredEventOf<I> {
  type: 'action_required';
  /** The interaction: its payload and deadline (and, on a live stream, its answer methods). */
  interaction: I;
}

/** A keep-alive; surfaced only with the `pings` option. */
export interface PingEvent {
  type: 'ping';
  ts: number;
}

/** The turn finished and was saved; `turn.content` is the complete answer. */
export interface CompletedEvent {
  type: 'completed';
  turn: Turn;
}

/** The turn was cancelled; `turn.content` is what was generated before the cut, possibly empty. */
export interface CancelledEvent {
  type: 'cancelled';
  turn: Turn;
}

/** The turn failed. */
export interface ErrorEvent {
  type: 'error';
  error: TurnFailure;
}

/**
 * A known event whose payload does not match the contract (a newer service, or a faulty one): passed on
 * with its raw data instead of being taken for damaged bytes (a warning is logged).
 */
export interface OffSchemaEvent {
  type: 'off_schema';
  /** The wire name (`message.step`, ...). */
  event: string;
  /** The data as it came: parsed JSON, or the raw text when it was not JSON. */
  data: unknown;
  /** What did not match: the first field path and its problem. */
  problem: string;
}

/** The connection broke and the stream was re-opened with the same key; what follows continues the text. */
export interface ResumedEvent {
  type: 'resumed';
  /** The how-manyth re-opening this is, from 1. */
  attempt: number;
  /** Why the previous connection was given up on. */
  reason: string;
}

/** An event this version does not know (the contract may add some); passed through untouched. */
export interface UnknownEvent {
  type: 'unknown';
  event: string;
  data: unknown;
}

/** Every event a stream yields, discriminated by `type`, with interactions of type `I`. */
export type StreamEvent<I> =
  | StartEvent
  | DeltaEvent
  | StepEvent
  | ActionRequiredEventOf<I>
  | PingEvent
  | CompletedEvent
  | CancelledEvent
  | ErrorEvent
  | ResumedEvent
  | OffSchemaEvent
  | UnknownEvent;

/**
 * The `type` each event of the contract is shown with (its name after `message.`). A row per event of
 * `EVENTS`, each naming a member of `StreamEvent`: an event added to the table does not compile until it is
 * shown as an event of its own, which the relay and `convo-sdk/ai`'s chunks then must handle too.
 */
export const EVENT_TYPES = {
  'message.start': 'start',
  'message.delta': 'delta',
  'message.step': 'step',
  'message.action_required': 'action_required',
  ping: 'ping',
  'message.completed': 'completed',
  'message.cancelled': 'cancelled',
  'message.error': 'error',
} as const satisfies Record<EventName, StreamEvent<unknown>['type']>;

/** The events that end a turn: those the contract's table marks terminal (`type` is the name after `message.`). */
export type TerminalEvent = Extract<
  StreamEvent<unknown>,
  { type: TerminalEventName extends `message.${infer T}` ? T : never }
>;

const TERMINAL_TYPES: ReadonlySet<string> = new Set(TERMINAL_EVENTS.map((name) => EVENT_TYPES[name]));

/** Whether `event` ends the turn. */
export function isTerminal(event: StreamEvent<unknown>): event is TerminalEvent {
  return TERMINAL_TYPES.has(event.type);
}
