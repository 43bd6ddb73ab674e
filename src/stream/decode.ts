import type * as z from 'zod/mini';
import { EVENTS, type EventName, type EventTable, isEventName } from '../contract/events.js';
import type { RawEvent } from './sse.js';

/** The validated payload of each event of `T`, by name. */
type PayloadsOf<T extends EventTable> = { [K in keyof T]: z.infer<T[K]['schema']> };
/** The validated payload of each event of the contract, by name. */
export type Payloads = PayloadsOf<typeof EVENTS>;

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
const TABLE: { readonly [K in EventName]: { schema: Parser<Payloads[K]> } } = EVENTS;

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

function known<K extends EventName>(name: K, payload: Payloads[K]): KnownEvent<K> {
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
