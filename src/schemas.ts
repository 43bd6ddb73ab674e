/**
 * `convo-sdk/schemas`: the contract as zod/mini schemas, the same ones the client checks requests and
 * responses with, for integrators who validate their own data (a relay, a webhook, a stored turn) the same way.
 * Request bodies are strict objects (an unknown field is an issue); responses are loose (fields a newer
 * service adds are kept), with the enums the contract may extend accepted as any string.
 *
 * @module
 */
export * from './contract/schemas.js';
