import * as z from 'zod/mini';
import { IntId, openEnum, Uuid } from './checks.js';
import type { KnownCode, MessageCode } from './codes.js';
import { type ErrorDetails, ErrorDetailsSchema } from './envelope.js';
import type { InteractionKind } from './interactions.js';
import { StepSchema, turnFields } from './turn.js';

/** The event names of a turn's stream (section 6). */
export const EVENT_NAMES = [
  'message.start',
  'message.delta',
  'message.step',
  'message.action_required',
  'ping',
  'message.completed',
  'message.cancelled',
  'message.error',
] as const;
/** An event name of the contract. */
export type EventName = (typeof EVENT_NAMES)[number];

/** The events that end a turn; exactly one arrives (6, rule 1). */
export const TERMINAL_EVENTS = ['message.completed', 'message.cancelled', 'message.error'] as const;

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

/** The schema of each event's payload. */
export const EVENT_SCHEMAS = {
  'message.start': StartPayloadSchema,
  'message.delta': DeltaPayloadSchema,
  'message.step': StepPayloadSchema,
  'message.action_required': ActionRequiredPayloadSchema,
  ping: PingPayloadSchema,
  'message.completed': FinishedPayloadSchema,
  'message.cancelled': FinishedPayloadSchema,
  'message.error': ErrorPayloadSchema,
} as const;

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
