import { readCapped } from '../wire/input.js';
import type { ExchangeFilter } from './exchanges.js';

/** A request to the inspector that cannot be carried out; answered 400 with its message. */
export class InspectorInputError extends Error {}

/** The most a change request may carry. */
const MAX_BODY = 64 * 1024;
/** The longest text a filter field takes. */
const MAX_FILTER = 200;

/**
 * The JSON object of a change request, at most `MAX_BODY` bytes: refused on its `Content-Length`, else
 * counted while reading and cancelled at the cap, so a huge body is never held.
 */
export async function readInput(request: Request): Promise<Record<string, unknown>> {
  const tooLarge = () => new InspectorInputError(`the body is over ${MAX_BODY} bytes`);
  if (Number(request.headers.get('content-length')) > MAX_BODY) throw tooLarge();
  const bytes = await readCapped(request, MAX_BODY);
  if (!bytes) throw tooLarge();
  let input: unknown;
  try {
    input = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    throw new InspectorInputError('the body is not JSON');
  }
  if (!isObject(input)) throw new InspectorInputError('the body is not a JSON object');
  return input;
}

/** Whether `value` is a plain JSON object. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The filter of a query (`?path=&status=&credential=&chat=`); an empty field does not narrow. Throws on a
 * status that is not `404`, `4xx` or `0`, a credential that is not an id, or a field over 200 characters.
 */
export function parseFilter(query: URLSearchParams): ExchangeFilter {
  const filter: ExchangeFilter = {};
  const field = (name: string) => {
    const value = query.get(name)?.trim() ?? '';
    if (value.length > MAX_FILTER)
      throw new InspectorInputError(`filter ${name} is over ${MAX_FILTER} characters`);
    return value === '' ? undefined : value;
  };
  const path = field('path');
  const status = field('status');
  const credential = field('credential');
  const chat = field('chat');
  if (path !== undefined) filter.path = path;
  if (chat !== undefined) filter.chat = chat;
  if (status !== undefined) {
    if (!/^(0|[1-5]\d\d|[1-5]xx)$/.test(status))
      throw new InspectorInputError('filter status must be a status (404), a class (4xx) or 0 (dropped)');
    filter.status = status;
  }
  if (credential !== undefined) {
    if (!/^[1-9]\d{0,5}$/.test(credential))
      throw new InspectorInputError('filter credential must be a credential id');
    filter.credential = Number(credential);
  }
  return filter;
}

/** An integer field of `input` from `min` to `max`; `fallback` when absent. */
export function integerField(
  input: Record<string, unknown>,
  name: string,
  min: number,
  max: number,
  fallback?: number,
): number {
  const value = input[name] ?? fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max)
    throw new InspectorInputError(`${name} must be an integer from ${min} to ${max}`);
  return value;
}
