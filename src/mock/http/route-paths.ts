import {
  ANSWERS,
  type AnswerEndpoint,
  INTERACTION_KINDS,
  type InteractionKind,
} from '../../contract/interactions.js';
import type { FaultRoute } from './faults.js';

/** Where the chat routes are mounted. */
export const CHATS_PATH = '/api/v1/chats';

/**
 * The paths, under `CHATS_PATH`, of the routes that serve their own fault points. The route modules
 * register exactly these, and `routeOf` is derived from them, so the fault router cannot drift from the
 * routes.
 */
export const ROUTE_PATHS = {
  send: '/:chat_id/messages',
  stream: '/:chat_id/messages/stream',
  cancel: '/:chat_id/actions/cancel',
} as const satisfies Partial<Record<FaultRoute, string>>;

/** The path under `CHATS_PATH` of the endpoint answering `kind` (4.5, 6): the `answer` named route. */
export function answerPath(kind: InteractionKind): `/:chat_id/actions/${AnswerEndpoint}` {
  return `/:chat_id/actions/${ANSWERS[kind].endpoint}`;
}

// `/:chat_id/messages` -> /^\/api\/v1\/chats\/[^/]+\/messages\/?$/
const pattern = (path: string) => new RegExp(`^${`${CHATS_PATH}${path}`.replace(/:[a-z_]+/g, '[^/]+')}/?$`);

const NAMED: ReadonlyArray<readonly [FaultRoute, RegExp]> = [
  ...Object.entries(ROUTE_PATHS).map(([route, path]) => [route as FaultRoute, pattern(path)] as const),
  ...INTERACTION_KINDS.map((kind) => ['answer', pattern(answerPath(kind))] as const),
];

/** The named route of a request, if it has one: what the routes' own fault points serve. */
export function routeOf(method: string, path: string): FaultRoute | undefined {
  if (method !== 'POST') return undefined;
  return NAMED.find(([, regex]) => regex.test(path))?.[0];
}
