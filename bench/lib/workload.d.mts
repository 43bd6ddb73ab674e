// Types of workload.mjs (plain JavaScript, so that the measured processes load no TypeScript).
export const SEED: number;
export const START_EVENT: string;
export const DELTA_EVENT: string;
export const END_EVENT: string;
export const DELTA_TEXT: string;
/** The harness's body of `deltas` deltas in one buffer, cut seeded `seed`. */
export function harnessChunks(deltas: number, seed: number): Uint8Array[];
/** What folding `deltas` deltas gives. */
export function expected(deltas: number): { events: number; deltas: number; chars: number };
/** The sink every contender hands each parsed event to. */
export function createSink(): {
  onEvent(data: unknown): void;
  readonly firstAt: number;
  result(): { events: number; deltas: number; chars: number };
};
/** The first-event body: the start event `delayMs` after the first read, the end `holdMs` later. */
export function firstEventBody(options: {
  holdMs: number;
  delayMs?: number;
  marks: { enqueuedAt?: number; closedAt?: number };
}): ReadableStream<Uint8Array>;
