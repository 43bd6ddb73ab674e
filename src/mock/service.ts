import { Hono } from 'hono';
import { cors } from 'hono/cors';
import { authenticate, type MockEnv } from './auth.js';
import { ApiFailure, notFound } from './respond.js';
import { skillRoutes } from './routes/skills.js';
import type { MockStore } from './store.js';

/** Options of `createMockService`. */
export interface MockServiceOptions {
  /** The state the routes read and change. */
  store: MockStore;
}

/** The mock as a Web-standard handler: what fetch injection, msw and the HTTP server all call. */
export interface MockService {
  /** Answers one request. */
  handle(request: Request): Promise<Response>;
}

/**
 * Builds the hono app: CORS first (a preflight carries no token), then authentication for everything
 * under `/api/v1`, then one route module per resource. Failures thrown anywhere become the error body.
 */
export function createMockService({ store }: MockServiceOptions): MockService {
  const app = new Hono<MockEnv>();

  // Any origin, so that a browser page can talk to `convo-mock`. No cookies are involved (the token is a
  // header), so `*` is allowed; nothing beyond the CORS-safelisted response headers is exposed.
  app.use(
    '*',
    cors({
      origin: '*',
      allowMethods: ['GET', 'POST', 'PATCH', 'DELETE', 'OPTIONS'],
      allowHeaders: ['Authorization', 'Content-Type', 'Idempotency-Key', 'Accept'],
      maxAge: 600,
    }),
  );
  // Every endpoint requires a credential (section 5), so an unauthenticated unknown path is 401 too.
  app.use('/api/v1/*', authenticate(store));

  app.route('/api/v1/skills', skillRoutes(store));

  app.notFound(() => notFound().toResponse());
  app.onError((error) => {
    if (error instanceof ApiFailure) return error.toResponse();
    return new ApiFailure(500, 'api_v1_internal_error', `Mock failure: ${error.message}`).toResponse();
  });

  return { handle: async (request) => app.fetch(request) };
}
