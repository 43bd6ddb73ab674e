import * as z from 'zod/mini';
import { intRange } from './checks.js';
import { lazy } from './lazy.js';
import { LIMITS } from './limits.js';

/** Which page of a list to read (section 8); a type alias, so that it fits a query's string-keyed record. */
export type PageQuery = {
  /** Page number, from 1 (default 1). */
  page?: number | undefined;
  /** Page size, 1 to 200 (default 50). */
  size?: number | undefined;
};

/** The query every list takes: `page` from 1, `size` from 1 to 200 (section 8); an unknown field is refused. */
export const pageQuerySchema = lazy(() =>
  z.strictObject({
    page: z.optional(intRange(1)),
    size: z.optional(intRange(1, LIMITS.pageSizeMax)),
  }),
);
/** The query every list takes (`pageQuerySchema`'s schema). */
export const PageQuerySchema = /* @__PURE__ */ pageQuerySchema();
