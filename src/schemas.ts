/**
 * `convo-sdk/schemas`: the contract as data. Its zod/mini schemas, the same ones the client checks requests
 * and responses with, for integrators who validate their own data (a relay, a webhook, a stored turn) the same
 * way: request bodies are strict objects (an unknown field is an issue); responses are loose (fields a newer
 * service adds are kept), with the enums the contract may extend accepted as any string. Its closed
 * enumerations, scopes, known codes, the limits of bodies (`LIMITS`) and `charCount`, how they count
 * characters: for a form that checks what it will send before the client does.
 *
 * @module
 */
export { PERMISSION_MODES } from './contract/chat.js';
export { KNOWN_CODES } from './contract/codes.js';
export { EVENT_NAMES } from './contract/events.js';
export { INTERACTION_KINDS } from './contract/interactions.js';
export { LIMITS } from './contract/limits.js';
export * from './contract/schemas.js';
export { SCOPES } from './contract/scopes.js';
export { SKILL_LEVELS, SKILL_VISIBILITIES } from './contract/skill.js';
export { charCount } from './contract/text.js';
export { ATTACHMENT_SCOPES, TURN_STATUSES } from './contract/turn.js';
