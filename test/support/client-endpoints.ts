import { ENDPOINT_NAMES, ENDPOINTS, type EndpointName } from '../../src/contract/endpoints.js';

/** An endpoint the client calls: every one of the table but `GET /users`, which is outside the contract. */
export type ClientEndpoint = {
  [N in EndpointName]: (typeof ENDPOINTS)[N] extends { outsideContract: true } ? never : N;
}[EndpointName];

/** The client's endpoints, from the table. */
export const CLIENT_ENDPOINTS = ENDPOINT_NAMES.filter(
  (name) => !('outsideContract' in ENDPOINTS[name]),
) as readonly ClientEndpoint[];

/**
 * The resource methods that are not one endpoint each, and the endpoints they call: `turns.run` streams
 * (`turns.stream`) and answers; `actions.answer` sends the answer of a kind to its endpoint.
 */
export const COMPOSED_METHODS = ['turns.run', 'actions.answer'] as const;

/** Every public resource method, `namespace.method`: derived from the endpoint table. */
export const PUBLIC_METHODS: readonly string[] = [...CLIENT_ENDPOINTS, ...COMPOSED_METHODS];
