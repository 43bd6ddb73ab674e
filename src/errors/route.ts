import { ConvoError } from './base.js';

/**
 * A chat route (`createChatRoute`) refused a new turn for want of room, before anything was sent: the route
 * as a whole holds `limit` live answers (`scope: 'route'`, 503), or this caller holds its share of them
 * (`scope: 'caller'`, 429).
 */
export class RouteCapacityError extends ConvoError {
  override name = 'RouteCapacityError';
  /** The number of live answers held at most. */
  readonly limit: number;
  /** Whose bound was reached: the route's (every caller's) or this caller's share. */
  readonly scope: 'route' | 'caller';

  constructor(limit: number, scope: 'route' | 'caller' = 'route') {
    super(
      scope === 'route'
        ? `the route already holds ${limit} live streams (maxStreams): try again when one ends`
        : `this caller already holds ${limit} live streams (maxCallerStreams): try again when one ends`,
    );
    this.limit = limit;
    this.scope = scope;
  }
}

/**
 * The Redis a chat route keeps its records and live answers in cannot be reached: a new turn is refused
 * (503) before anything is sent. Turns already streaming go on, resumes and stops fall back to the service.
 */
export class RedisUnavailableError extends ConvoError {
  override name = 'RedisUnavailableError';

  constructor(cause?: unknown) {
    super('the route cannot reach its Redis: try again shortly', cause === undefined ? undefined : { cause });
  }
}
