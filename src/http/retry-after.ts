/**
 * `Retry-After` in milliseconds (RFC 9110, 10.2.3): delta-seconds or an HTTP date; a date in the past is 0.
 * A negative, non-finite or unreadable value is no request to wait (`undefined`). A huge value is returned
 * as it is: the retry policy refuses to wait that long, it never reaches a timer.
 */
export function parseRetryAfter(header: string | null, now: number = Date.now()): number | undefined {
  const text = header?.trim() ?? '';
  if (/^[\d.eE+-]+$/.test(text)) {
    const seconds = Number(text);
    return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : undefined;
  }
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
