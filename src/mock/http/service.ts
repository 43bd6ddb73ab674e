import { Hono } from 'hono';
import { cors } from 'hono/cors';
import { createMiddleware } from 'hono/factory';
import { ENDPOINT_NAMES, ENDPOINTS } from '../../contract/endpoints.js';
import type { MockStore } from '../state/store.js';
import { pause } from '../time/clock.js';
import type { TurnEngine } from '../turns/engine.js';
import { ApiFailure, notFound } from '../wire/respond.js';
import { authenticate, type MockEnv, requireScopes } from './auth.js';
import { dropConnection, type FaultRegistry, faultFailure, isDropped } from './faults.js';
import type { Handlers } from './handler.js';
import { routeOf, routePath } from './route-paths.js';
import { actionHandlers } from './routes/actions.js';
import { catalogHandlers } from './routes/catalog.js';
import { chatHandlers } from './routes/chats.js';
import { skillHandlers } from './routes/skills.js';
import { turnHandlers } from './routes/turns.js';
import { userHandlers } from './routes/users.js';

/** Options of `createMockService`. */
export interface MockServiceOptions {
  /** The state the routes read and change. */
  store: MockStore;
  /** Runs the turns. */
  engine: TurnEngine;
  /** Faults on purpose. */
  faults: FaultRegistry;
}

/** The mock as a Web-standard handler: what fetch injection, msw and the HTTP server all call. */
export interface MockService {
  /** Answers one request; `Response.error()` when a fault drops the connection. */
  handle(request: Request): Promise<Response>;
}

/**
 * Builds the hono app: CORS first (a preflight carries no token), then authentication for everything
 * under `/api/v1`, then faults aimed at paths no route handles itself, then one route per endpoint of the
 * contract's table: its method and path, its scope check, its handler. Failures thrown anywhere become the
 * error body.
 */
export function createMockService({ store, engine, faults }: MockServiceOptions): MockService {
  const app = new Hono<MockEnv>();

  // Any origin, so that a browser page can talk to `convo-mock`. No cookies are involved (the token is a
  // header), so `*` is allowed; nothing beyond the CORS-safelisted response headers is exposed. No
  // `allowHeaders`: the preflight allows whatever headers it asks for (mock-conventions.md), so a page
  // adding its own (`x-app`) is not refused.
  app.use(
    '*',
    cors({ origin: '*', allowMethods: ['GET', 'POST', 'PATCH', 'DELETE', 'OPTIONS'], maxAge: 600 }),
  );
  // Every endpoint requires a credential (section 5), so an unauthenticated unknown path is 401 too.
  app.use('/api/v1/*', authenticate(store));
  app.use('/api/v1/*', patternFaults(faults));

  const sends = { store, engine, faults };
  const handlers = {
    ...skillHandlers(store),
    ...userHandlers(store),
    ...catalogHandlers(store),
    ...chatHandlers(store),
    ...turnHandlers(sends),
    ...actionHandlers(sends),
  } satisfies Handlers;
  for (const name of ENDPOINT_NAMES) {
    const { method, scopes } = ENDPOINTS[name];
    app.on(method, routePath(name), requireScopes(...scopes), handlers[name]);
  }

  app.notFound(() => notFound().toResponse());
  app.onError((error) => {
    if (error instanceof ApiFailure) return error.toResponse();
    return new ApiFailure(500, 'api_v1_internal_error', `Mock failure: ${error.message}`).toResponse();
  });

  return {
    handle: async (request) => {
      // A `delayMs` fault holds the request before anything sees it, so it delays a preflight or a 401 too.
      const path = new URL(request.url).pathname;
      const delay = faults.take(routeOf(request.method, path), request, 'delay');
      if (delay && 'delayMs' in delay) await pause(store.clock, delay.delayMs, request.signal);
      const response = await app.fetch(request);
      if (!isDropped(request)) return response;
      await response.body?.cancel().catch(() => {});
      return Response.error();
    },
  };
}

/**
 * Faults whose route is a RegExp, for requests no route serves at its own fault points (those of
 * `routeOf`): a `respond` answers before the handler (after it with `afterRun`), a `drop` after it.
 */
function patternFaults(faults: FaultRegistry) {
  return createMiddleware<MockEnv>(async (c, next) => {
    const path = new URL(c.req.url).pathname;
    if (routeOf(c.req.method, path) !== undefined) return next();
    const before = faults.take(undefined, c.req.raw, 'before');
    if (before && 'respond' in before) throw faultFailure(before.respond);
    await next();
    const after = faults.take(undefined, c.req.raw, 'after');
    if (after && 'respond' in after) c.res = faultFailure(after.respond).toResponse();
    else if (after) dropConnection(c.req.raw);
  });
}
