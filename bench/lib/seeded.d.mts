// Types of seeded.mjs (plain JavaScript, so that the measured processes load no TypeScript).
/** mulberry32 seeded `seed`: the next number in [0, 1) on each call. */
export function random(seed: number): () => number;
/** Fisher-Yates, seeded, in place. */
export function shuffle<T>(list: T[], next: () => number): T[];
/** Cuts `bytes` into chunks of 1 to `max` bytes (views), seeded. */
export function cut(bytes: Uint8Array, seed: number, max?: number): Uint8Array[];
/** A body that hands out `chunks` one per pull. */
export function bodyOf(chunks: Uint8Array[], onPull?: (index: number) => void): ReadableStream<Uint8Array>;
