import * as z from 'zod/mini';
import { lazy } from './lazy.js';
import { charCount, jsonByteLength } from './text.js';

/** A string of at most `limit` characters (code points, see `charCount`). */
export function maxChars(limit: number) {
  return z.string().check(
    z.refine((text: string) => text.length <= limit || charCount(text) <= limit, {
      message: `must be at most ${limit} characters`,
      params: { limit, unit: 'characters' },
    }),
  );
}

/** A JSON object of at most `limit` bytes once serialized as UTF-8; one JSON cannot serialize is refused. */
export function maxJsonBytes(limit: number) {
  return z.record(z.string(), z.unknown()).check(
    z.refine((value: Record<string, unknown>) => jsonByteLength(value) !== undefined, {
      message: 'must be serializable as JSON (no BigInt, no cycles)',
      abort: true,
    }),
    z.refine((value: Record<string, unknown>) => (jsonByteLength(value) ?? 0) <= limit, {
      message: `must serialize to at most ${limit} bytes of UTF-8 JSON`,
      params: { limit, unit: 'bytes' },
    }),
  );
}

/**
 * A string field of a response whose values the service may extend (section 9): typed as the known values
 * or any other string, and accepted at run time whatever it holds, so one new value never fails a page.
 * The known values are a type argument only: a list passed at run time would ship in every bundle unread.
 */
export function openEnum<T extends string>() {
  return z.string() as z.ZodMiniType<T | (string & {}), unknown>;
}

/** A whole number identifier. */
export const intId = lazy(() => z.int('must be an integer'));

/** An integer from `min` to `max` (or from `min` up), every failure saying so: "must be an integer from 1 to 200". */
export function intRange(min: number, max?: number) {
  const message = `must be an integer from ${min}${max === undefined ? '' : ` to ${max}`}`;
  const bounds = [z.minimum(min, message), ...(max === undefined ? [] : [z.maximum(max, message)])];
  return z.int(message).check(...bounds);
}

/** An ISO 8601 date-time string; UTC per the contract, any offset tolerated. */
export const timestamp = lazy(() => z.iso.datetime({ offset: true }));

/** A UUID in any version, either case: the pattern of `Uuid`, for a check made without the schema. */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A UUID string in any version (chat ids, request ids). */
export const uuid = lazy(() => z.string('must be a UUID').check(z.regex(UUID_PATTERN, 'must be a UUID')));
/** A UUID string (`uuid`'s schema). */
export const Uuid = /* @__PURE__ */ uuid();
