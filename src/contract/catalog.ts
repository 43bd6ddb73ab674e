import * as z from 'zod/mini';
import { IntId } from './checks.js';

/** The catalog (2.5); each of `libraries`, `skills` and `connectors` is absent without its scope. */
export const CatalogSchema = z.looseObject({
  models: z.array(z.looseObject({ id: IntId, name: z.string(), code: z.string(), type: z.string() })),
  permission_modes: z.array(z.string()),
  libraries: z.optional(z.array(z.looseObject({ id: IntId, name: z.string() }))),
  skills: z.optional(z.array(z.looseObject({ id: IntId, name: z.string() }))),
  connectors: z.optional(z.array(z.looseObject({ id: IntId, name: z.string(), display_name: z.string() }))),
});
/** Models, permission modes, and the libraries, skills and connectors the credential may attach. */
export type Catalog = z.infer<typeof CatalogSchema>;
