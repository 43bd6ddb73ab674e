/** A W3C `traceparent` (Trace Context, version 00 and later): version, trace id, parent id, flags. */
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(?:-.*)?$/;

/**
 * The trace id a request's `traceparent` header names, so that a developer can match an exchange to the
 * client's span; undefined without one, or for one that is malformed, of version `ff`, or all zeros.
 */
export function traceIdOf(traceparent: string | null): string | undefined {
  const match = TRACEPARENT.exec(traceparent?.trim() ?? '');
  if (!match) return undefined;
  const [, version, traceId, parentId] = match;
  if (version === 'ff' || /^0+$/.test(traceId ?? '') || /^0+$/.test(parentId ?? '')) return undefined;
  // Version 00 has exactly four fields; later versions may append more.
  if (version === '00' && traceparent?.trim().length !== 55) return undefined;
  return traceId;
}
