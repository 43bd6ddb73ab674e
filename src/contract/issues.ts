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
function issuePath(issue: z.core.$ZodIssue): string {
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
          message: own(issue) ?? `must ${count('at most', issue.maximum, issue.origin)}`,
          limit: Number(issue.maximum),
        };
      case 'too_small':
        return {
          field,
          message:
            own(issue) ??
            (issue.origin === 'string' && Number(issue.minimum) === 1
              ? 'must not be empty'
              : `must ${count('at least', issue.minimum, issue.origin)}`),
          limit: Number(issue.minimum),
        };
      case 'invalid_type':
        if (issue.input === undefined) return { field, message: 'is required' };
        return { field, message: own(issue) ?? `must be ${article(issue.expected)}` };
      case 'invalid_value':
        return { field, message: `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}` };
      case 'invalid_format':
        // A pattern's own message says what it expects; zod's name of a format is the fallback.
        return { field, message: own(issue) ?? `must be ${article(issue.format)}` };
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

/** The message a schema gave its check, if any: zod/mini's own is always 'Invalid input'. */
function own(issue: z.core.$ZodIssue): string | undefined {
  return issue.message === 'Invalid input' ? undefined : issue.message;
}

/** `be at most 200`, `be at most 200 characters`, `have at least 1 item`. */
function count(bound: string, limit: number | bigint, origin: string): string {
  if (origin === 'string') return `be ${bound} ${limit} characters`;
  if (origin === 'array' || origin === 'set')
    return `have ${bound} ${limit} item${Number(limit) === 1 ? '' : 's'}`;
  return `be ${bound} ${limit}`;
}

/** What zod expected, in words: `an integer`, `an object` (a record is one), `a UUID`. */
function article(expected: string): string {
  const named = NAMES[expected];
  if (named !== undefined) return named;
  return /^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`;
}

const NAMES: Record<string, string> = {
  int: 'an integer',
  record: 'an object',
  uuid: 'a UUID',
  datetime: 'an ISO 8601 date-time',
  regex: 'in the expected format',
};
