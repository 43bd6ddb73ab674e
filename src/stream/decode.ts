import type * as z from 'zod/mini';
import {
  type ActionRequiredPayloadSchema,
  type DeltaPayloadSchema,
  type ErrorPayloadSchema,
  EVENT_SCHEMAS,
  type EventName,
  type FinishedPayloadSchema,
  type PingPayloadSchema,
  type StartPayloadSchema,
  type StepPayloadSchema,
} from '../contract/events.js';
import type { RawEvent } from './sse.js';

/** A wire event with its payload validated; unknown names pass through. */
export type Decoded =
  | { name: 'message.start'; payload: z.infer<typeof StartPayloadSchema> }
  | { name: 'message.delta'; payload: z.infer<typeof DeltaPayloadSchema> }
  | { name: 'message.step'; payload: z.infer<typeof StepPayloadSchema> }
  | { name: 'message.action_required'; payload: z.infer<typeof ActionRequiredPayloadSchema> }
  | { name: 'ping'; payload: z.infer<typeof PingPayloadSchema> }
  | { name: 'message.completed' | 'message.cancelled'; payload: z.infer<typeof FinishedPayloadSchema> }
  | { name: 'message.error'; payload: z.infer<typeof ErrorPayloadSchema> }
  | { name: 'unknown'; event: string; data: unknown }
  | { name: 'off_schema'; event: EventName; data: unknown; problem: string };

/**
 * Validates one event. A known event whose data is not JSON or does not match the contract is
 * `off_schema`, carrying its raw data: the bytes of an event arrive whole or not at all (a cut connection
 * never completes the event), so such a payload is what the service sent, and re-reading would send it again.
 */
export function decode(raw: RawEvent): Decoded {
  const schema = (EVENT_SCHEMAS as Record<string, (typeof EVENT_SCHEMAS)[EventName]>)[raw.event];
  const name = raw.event as EventName;
  const parsed = parseLoose(raw.data);
  if (!schema) return { name: 'unknown', event: raw.event, data: parsed.data };
  if (!parsed.json)
    return { name: 'off_schema', event: name, data: parsed.data, problem: 'data is not JSON' };
  const result = schema.safeParse(parsed.data);
  if (result.success) return { name, payload: result.data } as Decoded;
  const issue = result.error.issues[0];
  const path = issue?.path.join('.') || '(root)';
  return {
    name: 'off_schema',
    event: name,
    data: parsed.data,
    problem: `${path}: ${issue?.message ?? 'invalid'}`,
  };
}

/** JSON.parse, or the text itself (`json: false`) when it is not JSON. */
export function parseLoose(data: string): { json: boolean; data: unknown } {
  try {
    return { json: true, data: JSON.parse(data) };
  } catch {
    return { json: false, data };
  }
}
