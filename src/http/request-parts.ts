import { ValidationError } from '../errors/index.js';
import { checkHeader, checkHeaders } from './headers.js';

// What a call sends, made and checked before anything is sent: its query string, headers and body text.

/** `?name=value&...` of the defined values of `query`, or `''` when there is none or none is defined. */
export function queryString(
  query: Record<string, string | number | boolean | undefined> | undefined,
): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query))
    if (value !== undefined) params.append(key, String(value));
  const text = params.toString();
  return text && `?${text}`;
}

/**
 * A call's own headers over the client's (set on the ky instance, `send-once.ts`): checked first, so that a
 * value fetch would refuse, or that would split the request, is a `ValidationError` before anything is sent.
 */
export function requestHeaders(
  accept: string,
  json: boolean,
  own: Record<string, string> | undefined,
  extra: Record<string, string> | undefined,
): Headers | Record<string, string> {
  for (const name in own)
    checkHeader(name === 'idempotency-key' ? 'idempotencyKey' : 'headers', name, own[name]);
  checkHeaders('headers', extra);
  const mine: Record<string, string> = {};
  if (accept !== 'application/json') mine.accept = accept;
  if (json) mine['content-type'] = 'application/json';
  // A plain object, as the client's headers, unless the caller's names may differ from these in case only
  // (`Headers` then merges them as fetch would).
  // Stryker disable next-line ConditionalExpression: the same headers as a `Headers` (only a cost)
  if (!own && !extra) return mine;
  const headers = new Headers(mine);
  for (const more of [own, extra]) for (const name in more) headers.set(name, more[name] as string);
  return headers;
}

/**
 * The request body as JSON text (`undefined` for none). Serialized before anything is sent, so that a value
 * JSON cannot hold (a BigInt, a cycle) is bad input, not a failure of the connection that would be retried.
 */
export function serialize(body: unknown): string | undefined {
  try {
    return JSON.stringify(body);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ValidationError([{ field: '(body)', message: `must be serializable as JSON (${reason})` }]);
  }
}
