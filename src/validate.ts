import type * as z from 'zod/mini';
import { checkAgainst } from './contract/issues.js';
import { ValidationError } from './errors.js';

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
