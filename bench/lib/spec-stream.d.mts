// Types of spec-stream.mjs (plain JavaScript, so that the measured processes load no TypeScript).
export const CHAT: string;
/** `message.completed` for an answer of `deltas` deltas, cut into chunks (built once per count). */
export function completedChunks(deltas: number): Uint8Array[];
/** The harness's body `source` as the contract's stream, as the harness's adapter rewrites it. */
export function toSpecStream(source: ReadableStream<Uint8Array>): ReadableStream<Uint8Array>;
