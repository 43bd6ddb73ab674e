/**
 * The trace id a request's `traceparent` header names, so that a developer can match an exchange to the
 * client's span; undefined without one, or for one that is malformed, of version `ff`, or all zeros.
 */
export function traceIdOf(traceparent: string | null): string | undefined {
  if (traceparent === null) return undefined;
  const text = traceparent.trim();
  // W3C Trace Context: version, trace id, parent id, flags; a version after 00 may append fields.
  const match = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(?:-.*)?$/.exec(text) as
    | [string, string, string, string, string]
    | null;
  if (!match) return undefined;
  const [, version, traceId, parentId] = match;
  const zeros = (id: string) => /^0+$/.test(id);
  if (version === 'ff' || zeros(traceId) || zeros(parentId)) return undefined;
  // Version 00 has exactly four fields.
  if (version === '00' && text.length !== 55) return undefined;
  return traceId;
}
