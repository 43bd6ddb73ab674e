import type * as z from 'zod/mini';
import { checkAgainst } from '../contract/issues.js';
import { MAX_TIMER_MS } from '../contract/limits.js';
import { ValidationError } from '../errors/index.js';

/** Checks `value` against `schema` before sending; throws a `ValidationError` naming the field. */
export function checkInput<T>(schema: z.ZodMiniType<T>, value: unknown, prefix = ''): T {
  const checked = checkAgainst(schema, value);
  if (checked.ok) return checked.value;
  if (!prefix) throw new ValidationError(checked.issues);
  const [first, ...rest] = checked.issues.map((issue) => ({
    ...issue,
    field: issue.field === '(body)' ? prefix : `${prefix}.${issue.field}`,
  }));
  throw new ValidationError([first!, ...rest]);
}

/** The range of a numeric option: a count (an integer), or a finite number of ms or bytes. */
interface NumberRange {
  min: number;
  max: number;
  unit: 'count' | 'ms' | 'bytes';
}

const count = (max: number): NumberRange => ({ min: 0, max, unit: 'count' });
const ms = (min: number): NumberRange => ({ min, max: MAX_TIMER_MS, unit: 'ms' });
const bytes = (max: number): NumberRange => ({ min: 1, max, unit: 'bytes' });

/**
 * The largest `maxTurnBytes`, 2^29 bytes: a turn's text is never longer than its body's bytes, and V8
 * (Node, Chrome, Deno; the smallest limit of the runtimes) holds a string of up to 2^29-24 characters, so no
 * body within an accepted bound can end a stream with a `RangeError`.
 */
export const MAX_TURN_BYTES = 2 ** 29;

/**
 * Every numeric option of the client and of a call, with its range. A wait stops at `MAX_TIMER_MS`, so no
 * timer ever overflows; every wait is also bounded by the call's `timeout`, which stops there too.
 */
const OPTION_RANGES = {
  timeout: ms(1),
  maxRetries: count(10),
  'retryDelay.min': ms(0),
  'retryDelay.max': ms(0),
  maxRetryAfter: ms(0),
  maxResponseBytes: bytes(Number.MAX_SAFE_INTEGER),
  idleTimeout: ms(1),
  maxResumes: count(100),
  maxTurnBytes: bytes(MAX_TURN_BYTES),
} satisfies Record<string, NumberRange>;

/** A numeric option's name. */
export type NumericOption = keyof typeof OPTION_RANGES;

/**
 * Throws a `ValidationError` naming `option` (its `limit` the bound crossed) unless `value` is absent or a
 * number in the option's range: an integer for counts and bytes, a finite number of ms for waits.
 */
export function checkOption(option: NumericOption, value: unknown): void {
  if (value === undefined) return;
  const { min, max, unit } = OPTION_RANGES[option];
  const whole = unit !== 'ms';
  if (
    typeof value === 'number' &&
    (whole ? Number.isInteger(value) : Number.isFinite(value)) &&
    value >= min &&
    value <= max
  )
    return;
  const what =
    unit === 'count' ? 'an integer' : unit === 'ms' ? 'a finite number of ms' : 'an integer number of bytes';
  const message = `must be ${what} from ${min} to ${max}`;
  const limit = typeof value !== 'number' ? undefined : value > max ? max : value < min ? min : undefined;
  throw new ValidationError([{ field: option, message, ...(limit === undefined ? {} : { limit }) }]);
}
