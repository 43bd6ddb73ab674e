/**
 * The world every mock instance starts with (mock-conventions.md, "Fixtures"). Fixed data: tests and
 * examples cite these ids, so changing one is a breaking change of the mock.
 */

/** A company: the boundary of visibility for skills, libraries and connectors. */
export interface MockCompany {
  /** Identifier. */
  readonly id: number;
  /** The model a turn uses when neither the turn nor the chat names one. */
  readonly defaultModelId: number;
}

/** A user; credentials act on behalf of one. */
export interface MockUser {
  /** Identifier (what `shared_user_ids` and `--token ...@USER` cite). */
  readonly id: number;
  /** The company the user belongs to. */
  readonly companyId: number;
}

/** A model of the catalog; only `COMPLETION` models are offered to turns. */
export interface MockModel {
  /** Identifier. */
  readonly id: number;
  /** Display name. */
  readonly name: string;
  /** Stable code. */
  readonly code: string;
  /** `COMPLETION` or `EMBEDDING`. */
  readonly type: 'COMPLETION' | 'EMBEDDING';
}

/** A library (workspace): a set of files owned by a company. */
export interface MockLibrary {
  /** Identifier (a skill's `workspace_id`, `{{library:id}}`). */
  readonly id: number;
  /** Display name. */
  readonly name: string;
  /** Owning company. */
  readonly companyId: number;
}

/** A file of a library. */
export interface MockFile {
  /** Identifier (`{{file:id}}`). */
  readonly id: number;
  /** The library holding it. */
  readonly libraryId: number;
}

/** A connector (MCP server) of a company. */
export interface MockConnector {
  /** Identifier (`{{connector:id}}`). */
  readonly id: number;
  /** Machine name, the `server` of a tool call. */
  readonly name: string;
  /** Display name. */
  readonly display_name: string;
  /** Whether the company has connected it; an unconnected one makes a turn raise `auth_required`. */
  readonly connected: boolean;
  /** Owning company. */
  readonly companyId: number;
}

/** A tool a connector offers. */
export interface MockTool {
  /** Identifier (`{{tool:id}}`). */
  readonly id: number;
  /** Tool name, as a tool call names it. */
  readonly name: string;
  /** The connector offering it. */
  readonly connectorId: number;
}

/** Everything seeded, grouped by kind. */
export interface MockFixtures {
  /** Companies 1 and 2. */
  readonly companies: readonly MockCompany[];
  /** Users 1, 2, 3 (company 1) and 4 (company 2). */
  readonly users: readonly MockUser[];
  /** Models 1 and 2 (completion) and 3 (embedding). */
  readonly models: readonly MockModel[];
  /** Libraries 1 "Handbook" and 2 "Research", both of company 1. */
  readonly libraries: readonly MockLibrary[];
  /** Files 11, 12 (library 1) and 21 (library 2). */
  readonly files: readonly MockFile[];
  /** Connectors 1 github (connected) and 2 drive (not connected), both of company 1. */
  readonly connectors: readonly MockConnector[];
  /** Tool 1 `search` on connector 1. */
  readonly tools: readonly MockTool[];
}

/** The fixtures of mock-conventions.md. */
export const FIXTURES: MockFixtures = deepFreeze({
  companies: [
    { id: 1, defaultModelId: 1 },
    { id: 2, defaultModelId: 1 },
  ],
  users: [
    { id: 1, companyId: 1 },
    { id: 2, companyId: 1 },
    { id: 3, companyId: 1 },
    { id: 4, companyId: 2 },
  ],
  models: [
    { id: 1, name: 'Mock Large', code: 'mock-large', type: 'COMPLETION' },
    { id: 2, name: 'Mock Small', code: 'mock-small', type: 'COMPLETION' },
    { id: 3, name: 'Mock Embed', code: 'mock-embed', type: 'EMBEDDING' },
  ],
  libraries: [
    { id: 1, name: 'Handbook', companyId: 1 },
    { id: 2, name: 'Research', companyId: 1 },
  ],
  files: [
    { id: 11, libraryId: 1 },
    { id: 12, libraryId: 1 },
    { id: 21, libraryId: 2 },
  ],
  connectors: [
    { id: 1, name: 'github', display_name: 'GitHub', connected: true, companyId: 1 },
    { id: 2, name: 'drive', display_name: 'Drive', connected: false, companyId: 1 },
  ],
  tools: [{ id: 1, name: 'search', connectorId: 1 }],
});

/** The company of `userId`, or undefined for an unknown user. */
export function companyOf(userId: number): number | undefined {
  return FIXTURES.users.find((user) => user.id === userId)?.companyId;
}

// Frozen so that no test can alter what the next mock instance starts with.
function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
