import type { Context } from 'hono';
import type { EndpointName } from '../../contract/endpoints.js';
import type { MockEnv } from './auth.js';
import type { RoutePath } from './route-paths.js';

/**
 * What serves one endpoint once the credential passed its scope check: its context's params are those of the
 * endpoint's path template, so a handler reads only ids its path has.
 */
type Handler<N extends EndpointName> = (c: Context<MockEnv, RoutePath<N>>) => Response | Promise<Response>;

/**
 * A handler for every endpoint of the table. Each route module returns its share `satisfies Partial<Handlers>`
 * (a name the table lacks does not compile); the service joins them `satisfies Handlers` (an endpoint no
 * module serves does not compile).
 */
export type Handlers = { readonly [N in EndpointName]: Handler<N> };
