/** A W3C `traceparent` (Trace Context, version 00 and later): version, trace id, parent id, flags. */
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(?:-.*)?$/;
/** An id of zeros only: invalid. */
const ZEROS = /^0+$/;

/**
 * The trace id a request's `traceparent` header names, so that a developer can match an exchange to the
 * client's span; undefined without one, or for one that is malformed, of version `ff`, or all zeros.
 */
export function traceIdOf(traceparent: string | null): string | undefined {
  if (traceparent === null) return undefined;
  const text = traceparent.trim();
  const match = TRACEPARENT.exec(text) as [string, string, string, string, string] | null;
  if (!match) return undefined;
  const [, version, traceId, parentId] = match;
  if (version === 'ff' || ZEROS.test(traceId) || ZEROS.test(parentId)) return undefined;
  // Version 00 has exactly four fields; later versions may append more.
  if (version === '00' && text.length !== 55) return undefined;
  return traceId;
}
