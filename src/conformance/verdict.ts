/** Thrown by a check that found the service off the contract. */
export class Failure extends Error {
  override name = 'Failure';
  constructor(
    /** What the contract expects. */
    readonly expected: string,
    /** What came instead. */
    readonly got: string,
    /** The request id of the answer at fault. */
    readonly requestId?: string,
  ) {
    super(`expected ${expected}, got ${got}`);
  }
}

/** Thrown by a check that cannot run against this service with what it was given. */
export class Skip extends Error {
  override name = 'Skip';
}

/** Fails with `expected` / `got` unless `condition` holds. */
export function expectThat(
  condition: boolean,
  expected: string,
  got: () => string,
  requestId?: string,
): asserts condition {
  if (!condition) throw new Failure(expected, got(), requestId);
}

/** A short, bounded JSON rendering of a value for the report. */
export function show(value: unknown, max = 300): string {
  let text: string;
  try {
    text = value === undefined ? 'nothing' : (JSON.stringify(value) ?? String(value));
  } catch {
    text = String(value);
  }
  return text.length > max ? `${text.slice(0, max)}...` : text;
}
