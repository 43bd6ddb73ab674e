import * as z from 'zod/mini';
import { IntId, Uuid } from './checks.js';
import { ErrorDetailsSchema } from './envelope.js';
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
  kind: z.string(),
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
  code: z.string(),
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

/** The payload of `message.error`. */
export type TurnFailure = z.infer<typeof ErrorPayloadSchema>;
/** The payload of `message.action_required`, before typing by kind. */
export type ActionRequiredPayload = z.infer<typeof ActionRequiredPayloadSchema>;
