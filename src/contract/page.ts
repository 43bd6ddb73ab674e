import * as z from 'zod/mini';
import { LIMITS } from './limits.js';

/** The query every list takes: `page` from 1, `size` from 1 to 200 (section 8). */
export const PageQuerySchema = z.object({
  page: z.optional(z.int().check(z.minimum(1))),
  size: z.optional(z.int().check(z.minimum(1), z.maximum(LIMITS.pageSizeMax))),
});
/** Which page of a list to read. */
export type PageQuery = z.infer<typeof PageQuerySchema>;
