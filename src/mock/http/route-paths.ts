import {
  ANSWER_ENDPOINTS,
  API_PREFIX,
  ENDPOINTS,
  type EndpointName,
  type PathParamName,
  pathPattern,
} from '../../contract/endpoints.js';
import type { FaultRoute } from './faults.js';

/** A path template as a hono path: `chats/{chat_id}/messages` -> `chats/:chat_id/messages`. */
type HonoPath<P extends string> = P extends `${infer Head}{${infer Name}}${infer Rest}`
  ? `${Head}:${Name}${HonoPath<Rest>}`
  : P;

/** The hono path an endpoint is served at, as its handler's context is typed: its params are the template's. */
export type RoutePath<N extends EndpointName> =
  `${typeof API_PREFIX}/${HonoPath<(typeof ENDPOINTS)[N]['path']>}`;

/**
 * What each path parameter must look like for a route to match: a `skill_id` that is not an integer matches
 * no route, so it is 404 like an unknown skill (before the scope check); any chat id reaches its route, which
 * answers the same 404 for a malformed one as for another credential's (7.1).
 */
const PARAM_PATTERNS = { chat_id: '', skill_id: '{[0-9]+}' } as const satisfies Record<PathParamName, string>;

/** The hono path of an endpoint: `skills/{skill_id}` -> `/api/v1/skills/:skill_id{[0-9]+}`. */
export function routePath(name: EndpointName): string {
  return `${API_PREFIX}/${ENDPOINTS[name].path}`.replace(
    /\{(\w+)\}/g,
    (_, param: PathParamName) => `:${param}${PARAM_PATTERNS[param]}`,
  );
}

/**
 * The endpoints whose handlers serve their own fault points, by the route a fault names them with; every
 * other request is served by the faults whose route is a RegExp.
 */
const NAMED_ENDPOINTS: ReadonlyArray<readonly [EndpointName, FaultRoute]> = [
  ['turns.send', 'send'],
  ['turns.stream', 'stream'],
  ['turns.cancel', 'cancel'],
  ...Object.values(ANSWER_ENDPOINTS).map((name) => [name, 'answer'] as const),
];

const pattern = (name: EndpointName) => new RegExp(`^${pathPattern(ENDPOINTS[name].path)}/?$`);

const NAMED = NAMED_ENDPOINTS.map(
  ([name, route]) => ({ route, method: ENDPOINTS[name].method, regex: pattern(name) }) as const,
);

/** The named route of a request, if it has one: what the routes' own fault points serve. */
export function routeOf(method: string, path: string): FaultRoute | undefined {
  return NAMED.find((named) => named.method === method && named.regex.test(path))?.route;
}
