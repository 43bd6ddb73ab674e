/** Numeric limits of the contract (sections 4 and 8), shared by the client's checks and the mock's answers. */
export const LIMITS = {
  /** Default list page size. */
  pageSizeDefault: 50,
  /** Largest list page size. */
  pageSizeMax: 200,
  /** Skill `name`, in characters. */
  skillName: 255,
  /** Skill `description`, in characters. */
  skillDescription: 500,
  /** Skill `instructions`, in characters. */
  skillInstructions: 12_000,
  /** Chat `name` on creation, in characters. */
  chatName: 200,
  /** Turn `content`, in characters. */
  turnContent: 64_000,
  /** Turn `metadata`, in bytes of UTF-8 serialized JSON. */
  turnMetadataBytes: 2048,
  /** The service cuts a synchronous turn off after this long (504). */
  syncTurnMaxMs: 30 * 60_000,
  /** An interaction expires this long after it was raised. */
  interactionLifetimeMs: 110_000,
  /** The stream sends a `ping` after this much silence. */
  pingIntervalMs: 15_000,
} as const;

/**
 * The longest delay one timer holds (2^31-1 ms, about 24.8 days): past it a timer fires at once, with a
 * warning. A fact of the runtimes rather than of the contract, kept here because both the client and the
 * mock bound their waits by it.
 */
export const MAX_TIMER_MS = 2 ** 31 - 1;
