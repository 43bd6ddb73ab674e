import * as z from 'zod/mini';
import { intId, openEnum, uuid } from './checks.js';
import type { KnownCode, MessageCode } from './codes.js';
import { type ErrorDetails, errorDetailsSchema } from './envelope.js';
import type { InteractionKind } from './interactions.js';
import { lazy } from './lazy.js';
import { stepSchema, turnFields } from './turn.js';

/** `message.start`: always first. */
const startPayloadSchema = lazy(() =>
  z.looseObject({ chat_id: uuid(), message_id: intId(), request_id: z.string() }),
);
/** `message.start` (`startPayloadSchema`'s schema). */
export const StartPayloadSchema = /* @__PURE__ */ startPayloadSchema();
/** `message.delta`: a new suffix, or with `replace` the full text (provider failover). */
const deltaPayloadSchema = lazy(() => z.looseObject({ text: z.string(), replace: z.boolean() }));
/** `message.delta` (`deltaPayloadSchema`'s schema). */
export const DeltaPayloadSchema = /* @__PURE__ */ deltaPayloadSchema();
/** `message.step`: informational progress. */
const stepPayloadSchema = lazy(() => z.looseObject({ steps: z.array(stepSchema()) }));
/** `message.step` (`stepPayloadSchema`'s schema). */
export const StepPayloadSchema = /* @__PURE__ */ stepPayloadSchema();
/** `message.action_required`: an interaction (2.6); its payload is typed per kind by the interactions layer. */
const actionRequiredPayloadSchema = lazy(() =>
  z.looseObject({
    kind: openEnum<InteractionKind>(),
    action_id: z.string(),
    payload: z.optional(z.unknown()),
    resolution: z.optional(z.string()),
  }),
);
/** `message.action_required` (`actionRequiredPayloadSchema`'s schema). */
export const ActionRequiredPayloadSchema = /* @__PURE__ */ actionRequiredPayloadSchema();
/** `ping`: resets a watchdog, nothing else. */
const pingPayloadSchema = lazy(() => z.looseObject({ ts: z.number() }));
/** `ping` (`pingPayloadSchema`'s schema). */
export const PingPayloadSchema = /* @__PURE__ */ pingPayloadSchema();
/** `message.completed` and `message.cancelled`: the saved turn. */
const finishedPayloadSchema = lazy(() => z.looseObject(turnFields()));
/** `message.completed` and `message.cancelled` (`finishedPayloadSchema`'s schema). */
export const FinishedPayloadSchema = /* @__PURE__ */ finishedPayloadSchema();
/** `message.error`: why the turn failed. */
const errorPayloadSchema = lazy(() =>
  z.looseObject({
    code: openEnum<KnownCode>(),
    message: z.string(),
    retryable: z.boolean(),
    details: z.optional(errorDetailsSchema()),
  }),
);
/** `message.error` (`errorPayloadSchema`'s schema). */
export const ErrorPayloadSchema = /* @__PURE__ */ errorPayloadSchema();

/** A row of `EVENTS`. */
export interface EventRow<S extends z.ZodMiniType, T extends boolean> {
  /** The payload's schema, built on first use. */
  readonly schema: S;
  /** Whether the event ends the turn. */
  readonly terminal: T;
}

/** A row whose schema `build` makes on first read (importing the contract builds none). */
function row<S extends z.ZodMiniType, T extends boolean>(build: () => S, terminal: T): EventRow<S, T> {
  return {
    get schema() {
      return build();
    },
    terminal,
  };
}

/**
 * The events of a turn's stream (section 6), the one table of them: each name's payload schema, and whether
 * it ends the turn (exactly one terminal event arrives, 6 rule 1). The stream's decoding and handling are
 * derived from it: an event added here must be handled there, or the SDK does not compile.
 */
export const EVENTS = {
  'message.start': row(startPayloadSchema, false),
  'message.delta': row(deltaPayloadSchema, false),
  'message.step': row(stepPayloadSchema, false),
  'message.action_required': row(actionRequiredPayloadSchema, false),
  ping: row(pingPayloadSchema, false),
  'message.completed': row(finishedPayloadSchema, true),
  'message.cancelled': row(finishedPayloadSchema, true),
  'message.error': row(errorPayloadSchema, true),
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

/** The schema of each event's payload, every one built: for `convo-sdk/schemas` (the client reads `EVENTS`). */
const eventSchemas = () => Object.fromEntries(EVENT_NAMES.map((name) => [name, EVENTS[name].schema]));
/** The schema of each event's payload. */
export const EVENT_SCHEMAS = /* @__PURE__ */ eventSchemas() as {
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
