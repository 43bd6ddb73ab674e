import type * as z from 'zod/mini';

/** A schema problem in plain words, with the limit it crossed when there is one. */
export interface PlainIssue {
  /** Dotted path of the field. */
  field: string;
  /** What is wrong. */
  message: string;
  /** The limit crossed, if any. */
  limit?: number;
}

/** Dotted path of an issue (`attachments.file_ids.0`). */
export function issuePath(issue: z.core.$ZodIssue): string {
  return issue.path.map(String).join('.');
}

/**
 * Checks `value` against `schema`: its value, or the problems in plain words. The input is reported so that
 * a missing field ("is required") is told apart from one of the wrong type.
 */
export function checkAgainst<T>(
  schema: z.ZodMiniType<T>,
  value: unknown,
): { ok: true; value: T } | { ok: false; issues: [PlainIssue, ...PlainIssue[]] } {
  const result = schema.safeParse(value, { reportInput: true });
  if (result.success) return { ok: true, value: result.data };
  return { ok: false, issues: plainIssues(result.error.issues) as [PlainIssue, ...PlainIssue[]] };
}

/** Turns zod issues into plain ones; zod/mini carries no messages of its own, so they are written here. */
export function plainIssues(issues: readonly z.core.$ZodIssue[]): PlainIssue[] {
  return issues.flatMap((issue): PlainIssue | PlainIssue[] => {
    const field = issuePath(issue) || '(body)';
    switch (issue.code) {
      case 'unrecognized_keys':
        // One issue per key, named in full: a misspelled field is refused, never silently dropped.
        return issue.keys.map((key) => ({
          field: [...issue.path.map(String), key].join('.'),
          message: 'is not a field of this request (misspelled?)',
        }));
      case 'too_big':
        return {
          field,
          message: `must be at most ${issue.maximum}${unit(issue.origin)}`,
          limit: Number(issue.maximum),
        };
      case 'too_small':
        return {
          field,
          message: `must be at least ${issue.minimum}${unit(issue.origin)}`,
          limit: Number(issue.minimum),
        };
      case 'invalid_type':
        if (issue.message !== 'Invalid input') return { field, message: issue.message };
        return {
          field,
          message: issue.input === undefined ? 'is required' : `must be ${article(issue.expected)}`,
        };
      case 'invalid_value':
        return { field, message: `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}` };
      case 'invalid_format':
        return { field, message: `must be a valid ${issue.format}` };
      case 'custom': {
        const limit = (issue.params as { limit?: unknown } | undefined)?.limit;
        return typeof limit === 'number'
          ? { field, message: issue.message, limit }
          : { field, message: issue.message };
      }
      default:
        return { field, message: issue.message === 'Invalid input' ? 'is invalid' : issue.message };
    }
  });
}

function unit(origin: string): string {
  if (origin === 'string') return ' characters';
  if (origin === 'array' || origin === 'set') return ' items';
  return '';
}

function article(expected: string): string {
  if (expected === 'int') return 'an integer';
  return /^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`;
}
