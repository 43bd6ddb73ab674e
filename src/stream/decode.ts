import type * as z from 'zod/mini';
import { UUID_PATTERN } from '../contract/checks.js';
import {
  EVENTS,
  type EventName,
  type EventPayloads,
  type EventTable,
  isEventName,
} from '../contract/events.js';
import type { RawEvent } from './sse.js';

/** The validated payload of each event of `T`, by name. */
export type PayloadsOf<T extends EventTable> = { [K in keyof T]: z.infer<T[K]['schema']> };

/** A known event of `T` with its payload validated: one member per name of the table. */
export type KnownEventOf<T extends EventTable, K extends keyof T = keyof T> = {
  [P in K]: { name: P; payload: PayloadsOf<T>[P] };
}[K];
/** A known event of the contract with its payload validated. */
export type KnownEvent<K extends EventName = EventName> = KnownEventOf<typeof EVENTS, K>;

/**
 * One handler per event of `T`, taking its payload and `A`: derived from the table, so a table grown by one
 * event needs one more handler, or it does not compile.
 */
export type HandlersOf<T extends EventTable, A extends unknown[], R> = {
  [K in keyof T]: (payload: PayloadsOf<T>[K], ...args: A) => R;
};

/** A wire event with its payload validated; unknown names pass through. */
export type Decoded = KnownEvent | { name: 'unknown'; event: string; data: unknown } | OffSchema;

/** A known event whose data is not JSON or does not match its schema. */
type OffSchema = { name: 'off_schema'; event: EventName; data: unknown; problem: string };

/**
 * The table with each schema typed by its payload, so that a generic name keeps its payload's type (a
 * schema's own type is invariant; only its parsing is needed here).
 */
const TABLE: { readonly [K in EventName]: { schema: Parser<EventPayloads[K]> } } = EVENTS;

/** What decoding needs of a schema. */
interface Parser<T> {
  safeParse(data: unknown): { success: true; data: T } | { success: false; error: z.core.$ZodError };
}

/**
 * Validates one event. A known event whose data is not JSON or does not match the contract is
 * `off_schema`, carrying its raw data: the bytes of an event arrive whole or not at all (a cut connection
 * never completes the event), so such a payload is what the service sent, and re-reading would send it again.
 */
export function decode(raw: RawEvent): Decoded {
  const parsed = parseLoose(raw.data);
  if (!isEventName(raw.event)) return { name: 'unknown', event: raw.event, data: parsed.data };
  return decodeKnown(raw.event, parsed);
}

function decodeKnown<K extends EventName>(
  name: K,
  parsed: { json: boolean; data: unknown },
): KnownEvent<K> | OffSchema {
  if (!parsed.json)
    return { name: 'off_schema', event: name, data: parsed.data, problem: 'data is not JSON' };
  const checked = (CHECKS[name] as Check<K> | undefined)?.(parsed.data);
  if (checked) return known(name, checked);
  const result = TABLE[name].schema.safeParse(parsed.data);
  if (result.success) return known(name, result.data);
  // zod reports at least one issue for a failed parse.
  const issue = result.error.issues[0]!;
  return {
    name: 'off_schema',
    event: name,
    data: parsed.data,
    problem: `${issue.path.join('.') || '(root)'}: ${issue.message}`,
  };
}

/** A hand-written check of one event's payload: what the schema would return, or undefined to ask the schema. */
type Check<K extends EventName> = (data: unknown) => EventPayloads[K] | undefined;

/**
 * Checks without the schema, for the event a turn's first event waits on: `message.start`, whose parse by
 * zod, cold after a wait for the model, was most of that event's own cost. Each accepts only what its schema
 * accepts (test/unit/start-check.test.ts holds it to the schema) and returns the data as it is, which is what
 * the schema's loose object returns (a copy with the same members); whatever it does not accept goes to the
 * schema, which gives the problem's words.
 */
const CHECKS: { readonly [K in EventName]?: Check<K> } = { 'message.start': checkStart };

/** `StartPayloadSchema`: a UUID `chat_id`, an integer `message_id` (a safe one, as `z.int`), a string `request_id`. */
function checkStart(data: unknown): EventPayloads['message.start'] | undefined {
  const start = data as Partial<Record<'chat_id' | 'message_id' | 'request_id', unknown>> | null;
  const ok =
    typeof start?.chat_id === 'string' &&
    UUID_PATTERN.test(start.chat_id) &&
    Number.isSafeInteger(start.message_id) &&
    typeof start.request_id === 'string';
  return ok ? (data as EventPayloads['message.start']) : undefined;
}

function known<K extends EventName>(name: K, payload: EventPayloads[K]): KnownEvent<K> {
  return { name, payload };
}

/** JSON.parse, or the text itself (`json: false`) when it is not JSON. */
export function parseLoose(data: string): { json: boolean; data: unknown } {
  try {
    return { json: true, data: JSON.parse(data) };
  } catch {
    return { json: false, data };
  }
}
