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
import { StreamBreak } from './errors.js';
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
  | { name: 'unknown'; event: string; data: unknown };

/**
 * Validates one event. A known event whose data is not JSON or breaks the contract means the bytes were
 * damaged on the way: a `StreamBreak`, which the stream recovers from by re-reading the stored outcome.
 */
export function decode(raw: RawEvent): Decoded {
  const schema = (EVENT_SCHEMAS as Record<string, (typeof EVENT_SCHEMAS)[EventName]>)[raw.event];
  if (!schema) return { name: 'unknown', event: raw.event, data: parseLoose(raw.data) };
  let data: unknown;
  try {
    data = JSON.parse(raw.data);
  } catch {
    throw new StreamBreak(`${raw.event} carried data that is not JSON`);
  }
  const result = schema.safeParse(data);
  if (!result.success) {
    const path = result.error.issues[0]?.path.join('.') ?? '';
    throw new StreamBreak(`${raw.event} does not match the contract at ${path || '(root)'}`);
  }
  return { name: raw.event, payload: result.data } as Decoded;
}

function parseLoose(data: string): unknown {
  try {
    return JSON.parse(data);
  } catch {
    return data;
  }
}
