// Loaded on demand by the Node entry (src/node.ts, ./hot-schema.ts), so that startup does not parse it.
export { compile } from 'zod/mini';
