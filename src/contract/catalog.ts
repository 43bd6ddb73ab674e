import * as z from 'zod/mini';
import type { PermissionMode } from './chat.js';
import { intId, openEnum } from './checks.js';
import { lazy } from './lazy.js';

/** A model a turn may use (2.5). */
export interface CatalogModel {
  /** The id a chat or turn names as `model_id`. */
  id: number;
  /** Display name. */
  name: string;
  /** Short code. */
  code: string;
  /** Its type (`COMPLETION`). */
  type: string;
}

/** A library, skill or connector the credential may attach (2.5). */
export interface CatalogEntry {
  /** The id to attach. */
  id: number;
  /** Its name. */
  name: string;
}

/** A connector the credential may attach (2.5). */
export interface CatalogConnector extends CatalogEntry {
  /** Display name. */
  display_name: string;
}

/** Models, permission modes, and the libraries, skills and connectors the credential may attach (2.5). */
export interface Catalog {
  /** The completion models. */
  models: CatalogModel[];
  /** `["manual", "auto"]`; a newer service may add modes. */
  permission_modes: Array<PermissionMode | (string & {})>;
  /** Libraries; absent without `libraries:read`. */
  libraries?: CatalogEntry[] | undefined;
  /** Skills; absent without `skills:read`. */
  skills?: CatalogEntry[] | undefined;
  /** Connectors; absent without `connectors:use`. */
  connectors?: CatalogConnector[] | undefined;
}

/** The catalog (2.5); each of `libraries`, `skills` and `connectors` is absent without its scope. */
export const catalogSchema = lazy(() =>
  z.looseObject({
    models: z.array(z.looseObject({ id: intId(), name: z.string(), code: z.string(), type: z.string() })),
    permission_modes: z.array(openEnum<PermissionMode>()),
    libraries: z.optional(z.array(z.looseObject({ id: intId(), name: z.string() }))),
    skills: z.optional(z.array(z.looseObject({ id: intId(), name: z.string() }))),
    connectors: z.optional(
      z.array(z.looseObject({ id: intId(), name: z.string(), display_name: z.string() })),
    ),
  }),
);
/** The catalog (`catalogSchema`'s schema). */
export const CatalogSchema = /* @__PURE__ */ catalogSchema();
