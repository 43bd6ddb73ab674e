import { LIMITS } from '../../contract/limits.js';
import { PageQuerySchema } from '../../contract/page.js';
import { validate } from '../wire/input.js';
import type { PageMeta } from '../wire/respond.js';

/** One page of a list, with the `meta` that describes it. */
export interface Page<T> {
  /** The items of the page. */
  items: T[];
  /** `meta.page`, `meta.size`, `meta.total`. */
  meta: PageMeta;
}

/**
 * Slices `items` by the `page` and `size` of `query` (defaults 1 and 50, size up to 200, section 8),
 * checked with the contract's `PageQuerySchema`: a bad value is 422 `api_v1_validation_error`.
 */
export function paginate<T>(items: readonly T[], query: URLSearchParams): Page<T> {
  const checked = validate(PageQuerySchema, pageQuery(query));
  const page = checked.page ?? 1;
  const size = checked.size ?? LIMITS.pageSizeDefault;
  const start = (page - 1) * size;
  return { items: items.slice(start, start + size), meta: { page, size, total: items.length } };
}

/**
 * `page` and `size` of a query string as a schema expects them: a numeric value as a number, anything else
 * as its text (so that it fails the schema by name), absent ones undefined. For lists whose query schema
 * extends `PageQuerySchema`.
 */
export function pageQuery(query: URLSearchParams): { page: unknown; size: unknown } {
  return { page: queryNumber(query.get('page')), size: queryNumber(query.get('size')) };
}

const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

// Query values are text: a numeric one becomes a number (so `1.5` fails the schema's range as a number does);
// anything else stays text and fails the schema as a value of the wrong type.
function queryNumber(value: string | null): number | string | undefined {
  if (value === null) return undefined;
  return DECIMAL.test(value) ? Number(value) : value;
}
