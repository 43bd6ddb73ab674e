/** Every scope the contract names (section 5), in the order mock-conventions.md lists them. */
export const SCOPES = [
  'skills:read',
  'skills:write',
  'chat:read',
  'chat:write',
  'libraries:read',
  'connectors:use',
] as const;

/** A scope a credential may hold. */
export type Scope = (typeof SCOPES)[number];
