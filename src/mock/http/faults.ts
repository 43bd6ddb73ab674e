import type { ErrorDetails } from '../../contract/envelope.js';
import { ApiFailure, errorDataProblem } from '../wire/respond.js';

/**
 * Faults on purpose: the next requests of a route fail in a chosen way, so that a client's recovery can
 * be tested. Each fault applies to `times` requests (1 by default), then is gone.
 */

/** The routes a fault can name: the two sends, the four answer endpoints, and cancel. */
export type FaultRoute = 'send' | 'stream' | 'answer' | 'cancel';

/** How `malformed` damages a stream. */
export type MalformedKind =
  | 'not-json'
  | 'no-data'
  | 'unknown-event'
  | 'second-terminal'
  | 'after-terminal'
  | 'bom'
  | 'crlf'
  | 'cr'
  | 'comments'
  | 'huge-event';

/** An error to answer instead of the real answer. */
export interface FaultResponse {
  /** HTTP status. */
  status: number;
  /** `message_code`. */
  code: string;
  /** Text; the code when absent. */
  message?: string;
  /** `data`; null when absent. */
  data?: unknown;
  /** `meta.error_details`. */
  errorDetails?: ErrorDetails;
  /**
   * Sends only: run the turn and store its outcome first, then answer this error (a 503
   * `persistence_failed` or 409 `idempotency_outcome_unknown` whose turn did happen).
   */
  afterRun?: boolean;
}

/** Which requests a fault hits. */
export interface FaultTarget {
  /** A named route, or a pattern tested against the request path. */
  route: FaultRoute | RegExp;
  /** How many requests it hits; 1 when absent. */
  times?: number;
}

/** The one thing a fault does. */
export type FaultAction =
  /** The request is handled (a send's turn runs and is stored) but the connection drops before the response. */
  | { drop: 'before-response' }
  /** Answers this error instead of the real answer. */
  | { respond: FaultResponse }
  /** The next `inProgress` replays of a finished key answer 409 `api_v1_turn_in_progress` (`times` is ignored). */
  | { inProgress: number }
  /** Streams: the body errors after that many events (pings and `message.start` count); the turn goes on. */
  | { cutAfterEvents: number }
  /** Streams: the body errors after that many bytes; the turn goes on. */
  | { cutAfterBytes: number }
  /** Streams: after that many events, no byte at all (no pings) until the client goes away. */
  | { stall: { afterEvents: number } }
  /** Streams: the SSE is damaged as named. */
  | { malformed: MalformedKind }
  /** The request waits that many milliseconds (on the mock's clock) before it is handled, then goes on. */
  | { delayMs: number };

/** A fault: a target and one action. */
export type MockFault = FaultTarget & FaultAction;

/** The moment of a request at which a kind of fault applies. */
export type FaultPoint =
  /** Before anything changes: `respond` without `afterRun`. */
  | 'before'
  /** A finished key is about to be replayed: `inProgress`. */
  | 'replay'
  /** The work is done, the response is ready: `drop`, `respond` with `afterRun`. */
  | 'after'
  /** A stream body is about to be written: `cutAfterEvents`, `cutAfterBytes`, `stall`, `malformed`. */
  | 'stream'
  /** The request has arrived, before anything else: `delayMs`. */
  | 'delay';

/** The faults of a mock: `mock.faults`. */
export interface MockFaults {
  /** Adds a fault after those already waiting. */
  add(fault: MockFault): void;
  /** Removes every waiting fault. */
  clear(): void;
  /** The waiting faults, `times` being what is left of each. */
  list(): MockFault[];
  /** The faults `request` used, in the order it took them (each as it was added), so a hit is credited to its request. */
  usedBy(request: Request): MockFault[];
}

interface Entry {
  fault: MockFault;
  left: number;
}

/** The waiting faults of a mock, taken by the routes at their fault points. */
export class FaultRegistry implements MockFaults {
  #entries: Entry[] = [];
  readonly #used = new WeakMap<Request, MockFault[]>();

  /** Adds a fault; throws on a fault without exactly one action or with a bad count. */
  add(fault: MockFault): void {
    const actions = ACTIONS.filter((action) => action in fault);
    if (actions.length !== 1) {
      throw new Error(`mock fault: exactly one of ${ACTIONS.join(', ')} is required`);
    }
    const left = 'inProgress' in fault ? fault.inProgress : (fault.times ?? 1);
    if (!Number.isInteger(left) || left < 1) throw new Error('mock fault: times must be a positive integer');
    if ('delayMs' in fault && !(Number.isInteger(fault.delayMs) && fault.delayMs >= 0))
      throw new Error('mock fault: delayMs must be a non-negative integer');
    const problem =
      'respond' in fault ? errorDataProblem(fault.respond.code, fault.respond.data ?? null) : undefined;
    if (problem) throw new Error(`mock fault: ${problem}`);
    this.#entries.push({ fault: { ...fault }, left });
  }

  /** Removes every waiting fault. */
  clear(): void {
    this.#entries = [];
  }

  /** The waiting faults. */
  list(): MockFault[] {
    return this.#entries.map(({ fault, left }) => ({ ...fault, times: left }));
  }

  /** The faults `request` used. */
  usedBy(request: Request): MockFault[] {
    return [...(this.#used.get(request) ?? [])];
  }

  /**
   * The first waiting fault for `route` (or whose pattern matches the path of `request`) that applies at
   * `point`, counted as used by `request`; undefined when none.
   */
  take(route: FaultRoute | undefined, request: Request, point: FaultPoint): MockFault | undefined {
    const path = new URL(request.url).pathname;
    const index = this.#entries.findIndex(
      ({ fault }) => targets(fault, route, path) && pointOf(fault) === point,
    );
    const entry = this.#entries[index];
    if (!entry) return undefined;
    entry.left -= 1;
    if (entry.left === 0) this.#entries.splice(index, 1);
    this.#used.set(request, [...(this.#used.get(request) ?? []), entry.fault]);
    return entry.fault;
  }
}

const ACTIONS = [
  'drop',
  'respond',
  'inProgress',
  'cutAfterEvents',
  'cutAfterBytes',
  'stall',
  'malformed',
  'delayMs',
] as const;

function targets(fault: MockFault, route: FaultRoute | undefined, path: string): boolean {
  if (fault.route instanceof RegExp) {
    fault.route.lastIndex = 0;
    return fault.route.test(path);
  }
  return fault.route === route;
}

function pointOf(fault: MockFault): FaultPoint {
  if ('respond' in fault) return fault.respond.afterRun ? 'after' : 'before';
  if ('drop' in fault) return 'after';
  if ('inProgress' in fault) return 'replay';
  if ('delayMs' in fault) return 'delay';
  return 'stream';
}

/** The error a `respond` fault answers. */
export function faultFailure(respond: FaultResponse): ApiFailure {
  return ApiFailure.relayed(
    respond.status,
    respond.code,
    respond.message ?? respond.code,
    respond.data ?? null,
    respond.errorDetails,
  );
}

/**
 * The fault point after the work of a named route: a `drop` marks the request (the service answers a
 * dropped connection) and gives a placeholder response; a `respond` with `afterRun` waits for `work` (a
 * streamed turn still running), then throws its error. Undefined when no such fault waits.
 */
export async function faultAfter(
  faults: FaultRegistry,
  route: FaultRoute,
  request: Request,
  work?: Promise<unknown>,
): Promise<Response | undefined> {
  const fault = faults.take(route, request, 'after');
  if (!fault) return undefined;
  if ('respond' in fault) {
    await work;
    throw faultFailure(fault.respond);
  }
  dropConnection(request);
  return new Response(null);
}

// Requests whose connection must drop: the service answers them with a network error.
const dropped = new WeakSet<Request>();

/** Marks `request` so that the service answers it with `Response.error()` (a dropped connection). */
export function dropConnection(request: Request): void {
  dropped.add(request);
}

/** Whether `request` was marked by `dropConnection`. */
export function isDropped(request: Request): boolean {
  return dropped.has(request);
}
