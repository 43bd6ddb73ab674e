import type * as z from 'zod/mini';
import type { DeltaPayloadSchema } from '../contract/events.js';
import { parseLoose } from './decode.js';
import type { RawEvent } from './sse.js';

type DeltaPayload = z.infer<typeof DeltaPayloadSchema>;

/**
 * `message.delta`'s payload, validated: `decode` without the schema lookup and the wrapper. Nearly every
 * event of a turn is a delta, and zod, then JSON.parse, cost more than the rest of reading one. Each step
 * here takes only what `DeltaPayloadSchema` (a loose object with a string `text` and a boolean `replace`)
 * would take; anything else is `undefined`, for `decode` to judge with the schema's message (BENCHMARKS.md,
 * "The speed machinery, with and without", has what zod on every delta costs). A delta whose data was seen
 * lately is the payload read then: read-only, shared by every delta of the same data.
 */
export function decodeDelta(raw: RawEvent): Readonly<DeltaPayload> | undefined {
  const seen = SEEN.get(raw.data);
  if (seen) return seen;
  const canonical = readCanonical(raw.data);
  if (canonical) return canonical;
  // Data that is not JSON stays the text it is: no delta either.
  const { data } = parseLoose(raw.data);
  return isDeltaPayload(data) ? data : undefined;
}

/**
 * A delta with a short text without escapes, as JSON.stringify writes it (`{"text":"…","replace":false}`)
 * or json.dumps does (a space after each `:` and `,`). A string body without a quote, a backslash or a
 * control character (JSON forbids raw ones) is the text itself. At most 12 UTF-16 units: V8 copies a
 * substring that short, but shares a longer one with the string it was cut from, and a delta kept in the
 * folded text would then keep its whole network chunk alive; longer texts go through JSON.parse, which
 * copies.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what it excludes.
const CANONICAL = /^\{"text": ?"[^"\\\u0000-\u001f]{0,12}", ?"replace": ?(?:true|false)\}$/;

/**
 * Reads such a delta with one regular expression and a slice instead of JSON.parse (a third of its time),
 * and keeps it for the next delta of the same data; anything else (escapes, longer texts, other keys, order
 * or spacing) returns undefined and goes through JSON.parse.
 */
function readCanonical(data: string): Readonly<DeltaPayload> | undefined {
  if (!CANONICAL.test(data)) return undefined;
  const start = data.charCodeAt(8) === 0x20 ? 10 : 9; // after `{"text":"` or `{"text": "`
  // The body holds no quote: the next one closes it. The tail ends `true}` or `false}`.
  const payload = {
    text: data.slice(start, data.indexOf('"', start)),
    replace: data.charCodeAt(data.length - 3) === 0x75,
  };
  remember(data, payload);
  return payload;
}

/**
 * Canonical deltas seen lately, by their data; cleared when full, so it stays small whatever the stream. A
 * model repeats its tokens: a delta seen before costs one lookup, and neither a parse nor an object of its
 * own, and a folded text (or a caller's) that keeps it points at one shared string per token rather than a
 * fresh copy per delta (JSON.parse shares short strings the same way).
 */
const SEEN = new Map<string, Readonly<DeltaPayload>>();
const SEEN_MAX = 4096;

/** Keeps `payload` as the reading of `data`. */
function remember(data: string, payload: Readonly<DeltaPayload>): void {
  // Stryker disable ConditionalExpression,EqualityOperator,CallExpression: only memory sees the cache size.
  if (SEEN.size >= SEEN_MAX) SEEN.clear();
  // Stryker restore ConditionalExpression,EqualityOperator,CallExpression
  // The key is a copy: the data is a slice of its network chunk, which a key of it would keep alive.
  SEEN.set(` ${data}`.slice(1), payload);
}

/**
 * A string `text` and a boolean `replace`: what the schema accepts, of what `parseLoose` returns. Only an
 * object has them: an array's or a primitive's `text` is undefined, and `null` has no properties to read.
 */
function isDeltaPayload(data: unknown): data is DeltaPayload {
  const payload = data as { text?: unknown; replace?: unknown } | null;
  return typeof payload?.text === 'string' && typeof payload.replace === 'boolean';
}
