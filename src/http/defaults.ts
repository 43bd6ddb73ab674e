/**
 * What the client uses where an option is left out: the one place each default is written. The code reads
 * it, and the "Defaults" table of docs/client.md is checked against it (`test/docs/defaults.test.ts`).
 */
export const CLIENT_DEFAULTS = {
  /** Milliseconds to wait for a response (a synchronous turn waits past the service's 30-minute cut). */
  timeout: 60_000,
  /** Further attempts after the first, where the contract says repeating is safe. */
  maxRetries: 2,
  /** First backoff delay, in ms. */
  retryDelayMin: 500,
  /** Largest backoff delay, in ms. */
  retryDelayMax: 8_000,
  /** Longest `Retry-After` honoured, in ms. */
  maxRetryAfter: 60_000,
  /**
   * Largest response body read, in decoded bytes: 32 MiB. The largest legal response is a page of 200
   * skills whose instructions, names and descriptions are at their limits in JSON-escaped control
   * characters (6 bytes each): about 15.4 MB, so twice that fits.
   */
  maxResponseBytes: 32 * 1024 * 1024,
  /** A stream with no event, pings included, for this long (ms) is dead: three ping intervals (5.1). */
  idleTimeout: 45_000,
  /** Times a broken stream is re-opened with its key before `StreamInterruptedError`. */
  maxResumes: 5,
  /**
   * Largest body one connection of a streamed turn (or a relay) delivers, in bytes: 64 MiB, thousands of
   * times a long answer, and four event bounds (16 MiB each). Past it `TurnTooLargeError`, long before a
   * string outgrows what V8 can hold (about 2^29 characters).
   */
  maxTurnBytes: 64 * 1024 * 1024,
} as const;
