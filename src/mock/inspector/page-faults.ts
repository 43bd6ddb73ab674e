import type { FaultRoute, MalformedKind, MockFault, MockFaults } from '../http/faults.js';
import { errorDataProblem } from '../wire/respond.js';
import { InspectorInputError, integerField } from './input.js';

/** A fault armed from the page, while it waits and once it fired. */
export interface PageFault {
  /** The page's own number for it. */
  id: number;
  /** What it does, in words: `stream: 503 api_v1_service_unavailable (retry)`. */
  description: string;
  /** How many more requests it will hit. */
  left: number;
  /** The exchanges it fired on (ids), oldest first. */
  firedOn: number[];
  /** `armed` while it waits, `fired` once used up, `cleared` if it went without firing (a reset). */
  state: 'armed' | 'fired' | 'cleared';
}

const ROUTES: readonly FaultRoute[] = ['send', 'stream', 'answer', 'cancel'];
const MALFORMED: readonly MalformedKind[] = [
  'not-json',
  'no-data',
  'unknown-event',
  'second-terminal',
  'after-terminal',
  'bom',
  'crlf',
  'cr',
  'comments',
  'huge-event',
];
/** The longest delay the page arms: 10 minutes. */
const MAX_DELAY_MS = 600_000;
/** Faults remembered after they fired or went; older ones are forgotten. */
const MAX_KEPT = 50;
// Which page fault an entry of `mock.faults` is: the registry copies a fault with its own (symbol) keys.
const PAGE_ID = Symbol('inspector fault');

type Tagged = MockFault & { [PAGE_ID]?: number };

/**
 * The faults the page arms, as `mock.faults` entries: the same registry, routes and actions as
 * `mock.faults.add` (docs/mock.md, "Time, faults and counters"), so a fault armed here is one a test could
 * write. Each is tracked from armed to fired by the requests that used it (`mock.faults.usedBy`).
 */
export class PageFaults {
  readonly #faults: MockFaults;
  #kept: PageFault[] = [];
  #sequence = 0;

  constructor(faults: MockFaults) {
    this.#faults = faults;
  }

  /** Arms the fault the page's form describes; throws `InspectorInputError` on a field out of bounds. */
  arm(input: Record<string, unknown>): PageFault {
    const fault = faultOf(input);
    const id = ++this.#sequence;
    this.#faults.add({ ...fault, [PAGE_ID]: id } as Tagged);
    const armed: PageFault = {
      id,
      description: describe(fault),
      left: 'inProgress' in fault ? fault.inProgress : (fault.times ?? 1),
      firedOn: [],
      state: 'armed',
    };
    this.#kept.push(armed);
    return armed;
  }

  /**
   * Credits exchange `exchangeId` with the page faults its `request` used (`mock.faults.usedBy`), so a
   * request finishing while another waits on a fault is not marked; returns the description of the last.
   */
  check(request: Request, exchangeId: number): string | undefined {
    let fired: string | undefined;
    for (const used of this.#faults.usedBy(request) as Tagged[]) {
      const fault = this.#kept.find((kept) => kept.id === used[PAGE_ID]);
      if (fault?.state !== 'armed') continue;
      fault.firedOn.push(exchangeId);
      fault.left -= 1;
      if (fault.left === 0) fault.state = 'fired';
      fired = fault.description;
    }
    this.#forget();
    return fired;
  }

  /** The page's faults, newest first, and those armed in code (`mock.faults.add`), described. */
  list(): { page: PageFault[]; code: string[] } {
    const code = (this.#faults.list() as Tagged[])
      .filter((fault) => fault[PAGE_ID] === undefined)
      .map((fault) => `${describe(fault)} ×${fault.times ?? 1}`);
    return { page: this.#kept.slice().reverse(), code };
  }

  /** Removes every waiting fault (the page's and the code's). */
  clear(): void {
    this.#faults.clear();
    for (const fault of this.#kept) if (fault.state === 'armed') fault.state = 'cleared';
    this.#forget();
  }

  /** Removes every waiting fault and forgets those the page armed (the mock was reset). */
  reset(): void {
    this.#faults.clear();
    this.#kept = [];
  }

  /** Forgets the oldest faults that are over, past `MAX_KEPT`. */
  #forget(): void {
    const over = this.#kept.filter((fault) => fault.state !== 'armed');
    const forgotten = new Set(over.slice(0, Math.max(0, over.length - MAX_KEPT)));
    if (forgotten.size > 0) this.#kept = this.#kept.filter((fault) => !forgotten.has(fault));
  }
}

/** The `MockFault` a form describes. */
function faultOf(input: Record<string, unknown>): MockFault {
  const times = integerField(input, 'times', 1, 100, 1);
  const route = routeOf(input);
  const target = { route, times };
  switch (input.action) {
    case 'respond': {
      const status = integerField(input, 'status', 400, 599);
      const code = input.code;
      if (typeof code !== 'string' || !/^[a-z0-9_]{1,64}$/.test(code))
        throw new InspectorInputError('code must be 1 to 64 characters of a-z, 0-9, _');
      const retry = input.retry_action;
      if (retry !== undefined && retry !== '' && retry !== 'retry' && retry !== 'check_status')
        throw new InspectorInputError('retry_action must be retry, check_status or empty');
      const data = input.data ?? null;
      const problem = errorDataProblem(code, data);
      if (problem) throw new InspectorInputError(problem);
      const respond = {
        status,
        code,
        ...(data === null ? {} : { data }),
        ...(retry ? { errorDetails: { retry_action: retry } } : {}),
        ...(input.after_run === true ? { afterRun: true } : {}),
      };
      return { ...target, respond };
    }
    case 'drop':
      return { ...target, drop: 'before-response' };
    case 'cutAfterEvents':
      return { ...target, cutAfterEvents: integerField(input, 'events', 0, 10_000) };
    case 'stall':
      return { ...target, stall: { afterEvents: integerField(input, 'events', 0, 10_000) } };
    case 'inProgress':
      return { route, inProgress: integerField(input, 'times', 1, 100, 1) };
    case 'malformed': {
      const kind = input.malformed;
      if (!MALFORMED.includes(kind as MalformedKind))
        throw new InspectorInputError(`malformed must be one of ${MALFORMED.join(', ')}`);
      return { ...target, malformed: kind as MalformedKind };
    }
    case 'delay':
      return { ...target, delayMs: integerField(input, 'ms', 0, MAX_DELAY_MS) };
    default:
      throw new InspectorInputError(
        'action must be respond, drop, cutAfterEvents, stall, inProgress, malformed or delay',
      );
  }
}

/** A named route, or `path`: a RegExp matching paths that contain `input.path` (escaped). */
function routeOf(input: Record<string, unknown>): FaultRoute | RegExp {
  if (ROUTES.includes(input.route as FaultRoute)) return input.route as FaultRoute;
  if (input.route !== 'path')
    throw new InspectorInputError(`route must be one of ${ROUTES.join(', ')} or path`);
  const path = input.path;
  if (typeof path !== 'string' || !/^\/[\x21-\x7e]{0,199}$/.test(path))
    throw new InspectorInputError('path must start with / and be at most 200 printable characters');
  return new RegExp(path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
}

/** A fault in words, as the page shows it. */
function describe(fault: MockFault): string {
  const route =
    fault.route instanceof RegExp ? `path ~ ${fault.route.source.replaceAll('\\', '')}` : fault.route;
  if ('respond' in fault) {
    const retry = fault.respond.errorDetails?.retry_action;
    return `${route}: ${fault.respond.status} ${fault.respond.code}${retry ? ` (retry_action ${retry})` : ''}${fault.respond.afterRun ? ' after the run' : ''}`;
  }
  if ('drop' in fault) return `${route}: drop the response`;
  if ('cutAfterEvents' in fault) return `${route}: cut the stream after ${fault.cutAfterEvents} events`;
  if ('cutAfterBytes' in fault) return `${route}: cut the stream after ${fault.cutAfterBytes} bytes`;
  if ('stall' in fault) return `${route}: stall the stream after ${fault.stall.afterEvents} events`;
  if ('inProgress' in fault) return `${route}: 409 api_v1_turn_in_progress on replays`;
  if ('delayMs' in fault) return `${route}: delay ${fault.delayMs} ms`;
  return `${route}: malformed stream (${fault.malformed})`;
}
