import { ValidationError } from '../errors/index.js';

/** A header name: an HTTP token. */
const NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** What no header value may hold: CR, LF, NUL (header injection) or a character beyond Latin-1. */
const BAD_VALUE = /[\0\r\n]|[^\0-\xff]/;

/**
 * Refuses a header that fetch would reject with a raw `TypeError` (whose message may quote the value, and so
 * the token) or that would split the request: a `ValidationError` naming `field`, never the value.
 */
export function checkHeader(field: string, name: string, value: unknown): void {
  if (!NAME.test(name))
    throw headerError(field, "must be a header name (an HTTP token: letters, digits and !#$%&'*+.^_`|~-)");
  if (typeof value !== 'string') throw headerError(field, 'must be a string');
  if (BAD_VALUE.test(value))
    throw headerError(field, 'must not hold CR, LF, NUL or characters outside Latin-1');
}

/** Checks every header of `headers`, each named `<prefix>.<name>` (see `checkHeader`). */
export function checkHeaders(prefix: string, headers: Record<string, string> | undefined): void {
  for (const name in headers) checkHeader(`${prefix}.${name}`, name, headers[name]);
}

function headerError(field: string, message: string): ValidationError {
  return new ValidationError([{ field, message }]);
}
