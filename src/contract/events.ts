import * as z from 'zod/mini';
import { IntId, openEnum, Uuid } from './checks.js';
import type { KnownCode, MessageCode } from './codes.js';
import { type ErrorDetails, ErrorDetailsSchema } from './envelope.js';
import type { InteractionKind } from './interactions.js';
import { StepSchema, turnFields } from './turn.js';

/** `message.start`: always first. */
export const StartPayloadSchema = z.looseObject({ chat_id: Uuid, message_id: IntId, request_id: z.string() });
/** `message.delta`: a new suffix, or with `replace` the full text (provider failover). */
export const DeltaPayloadSchema = z.looseObject({ text: z.string(), replace: z.boolean() });
/** `message.step`: informational progress. */
export const StepPayloadSchema = z.looseObject({ steps: z.array(StepSchema) });
/** `message.action_required`: an interaction (2.6); its payload is typed per kind by the interactions layer. */
export const ActionRequiredPayloadSchema = z.looseObject({
  kind: openEnum<InteractionKind>(),
  action_id: z.string(),
  payload: z.optional(z.unknown()),
  resolution: z.optional(z.string()),
});
/** `ping`: resets a watchdog, nothing else. */
export const PingPayloadSchema = z.looseObject({ ts: z.number() });
/** `message.completed` and `message.cancelled`: the saved turn. */
export const FinishedPayloadSchema = z.looseObject(turnFields);
/** `message.error`: why the turn failed. */
export const ErrorPayloadSchema = z.looseObject({
  code: openEnum<KnownCode>(),
  message: z.string(),
  retryable: z.boolean(),
  details: z.optional(ErrorDetailsSchema),
});

/**
 * The events of a turn's stream (section 6), the one table of them: each name's payload schema, and whether
 * it ends the turn (exactly one terminal event arrives, 6 rule 1). The stream's decoding and handling are
 * derived from it: an event added here must be handled there, or the SDK does not compile.
 */
export const EVENTS = {
  'message.start': { schema: StartPayloadSchema, terminal: false },
  'message.delta': { schema: DeltaPayloadSchema, terminal: false },
  'message.step': { schema: StepPayloadSchema, terminal: false },
  'message.action_required': { schema: ActionRequiredPayloadSchema, terminal: false },
  ping: { schema: PingPayloadSchema, terminal: false },
  'message.completed': { schema: FinishedPayloadSchema, terminal: true },
  'message.cancelled': { schema: FinishedPayloadSchema, terminal: true },
  'message.error': { schema: ErrorPayloadSchema, terminal: true },
} as const satisfies EventTable;

/** The shape of an events table: by name, the payload's schema and whether the event ends the turn. */
export type EventTable = Record<string, { schema: z.ZodMiniType; terminal: boolean }>;
/** An event name of the contract. */
export type EventName = keyof typeof EVENTS;
/** The events of the contract that end a turn. */
export type TerminalEventName = {
  [K in EventName]: (typeof EVENTS)[K]['terminal'] extends true ? K : never;
}[EventName];

/** The validated payload of each event of the contract, by name: derived from `EVENTS`. */
export type EventPayloads = { [K in EventName]: z.infer<(typeof EVENTS)[K]['schema']> };

/** The event names of a turn's stream (section 6). */
export const EVENT_NAMES = Object.keys(EVENTS) as readonly EventName[];

/** The events that end a turn; exactly one arrives (6, rule 1). */
export const TERMINAL_EVENTS = EVENT_NAMES.filter(
  (name) => EVENTS[name].terminal,
) as readonly TerminalEventName[];

/** Whether `name` is an event of the contract (an own name of the table: `toString` is not one). */
export function isEventName(name: string): name is EventName {
  return Object.hasOwn(EVENTS, name);
}

/** Whether `name` is an event that ends a turn. */
export function isTerminalEvent(name: string): name is TerminalEventName {
  return isEventName(name) && EVENTS[name].terminal;
}

/** The schema of each event's payload. */
export const EVENT_SCHEMAS = Object.fromEntries(EVENT_NAMES.map((name) => [name, EVENTS[name].schema])) as {
  readonly [K in EventName]: (typeof EVENTS)[K]['schema'];
};

/** Why a turn failed: the payload of `message.error` (6). */
export interface TurnFailure {
  /** What went wrong (`turn_timeout`, `upstream_error`...); a newer service may add codes. */
  code: MessageCode;
  /** Text for people. */
  message: string;
  /** Whether another turn with a NEW key may work; the same key replays this error. */
  retryable: boolean;
  /** Outage details, when an outage caused it. */
  details?: ErrorDetails | undefined;
}

/** An interaction as `message.action_required` raises it (2.6), before it is typed by kind. */
export interface ActionRequiredPayload {
  /** The interaction's kind; a newer service may add kinds. */
  kind: InteractionKind | (string & {});
  /** Names the interaction in the answer; valid only for this turn and credential. */
  action_id: string;
  /** What the interaction asks, shaped by `kind`. */
  payload?: unknown | undefined;
  /** With `auth_required`: `connect_in_ui_or_cancel`. */
  resolution?: string | undefined;
}
