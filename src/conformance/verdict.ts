import type { FailedRequest } from './types.js';

/** An answer a verdict can point at: its call, status and request id. */
export interface Answered {
  /** `GET /api/v1/chats`. */
  call: string;
  /** The status, when one came. */
  status: number | undefined;
  /** The request id, when one came. */
  requestId: string | undefined;
}

/** The request of `answer`, as a report shows it. */
function requestOf(answer: Answered | undefined): FailedRequest | undefined {
  return answer && { call: answer.call, status: answer.status, requestId: answer.requestId };
}

/** Thrown by a check that found the service off the contract. */
export class Failure extends Error {
  override name = 'Failure';
  /** The request whose answer is at fault. */
  readonly request: FailedRequest | undefined;
  constructor(
    /** What the contract expects. */
    readonly expected: string,
    /** What came instead. */
    readonly got: string,
    /** The answer at fault. */
    answer?: Answered,
  ) {
    super(`expected ${expected}, got ${got}`);
    this.request = requestOf(answer);
  }
}

/** Thrown by a check that found the service off near-universal practice where the spec is silent. */
export class Warning extends Failure {
  override name = 'Warning';
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
  answer?: Answered,
): asserts condition {
  if (!condition) throw new Failure(expected, got(), answer);
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
