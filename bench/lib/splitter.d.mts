// Types of splitter.mjs (plain JavaScript, so that the measured processes load no TypeScript).
/** Hands each event's data, and its name, to `onMessage`. */
export function splitEvents(
  body: ReadableStream<Uint8Array>,
  onMessage: (data: string, event: string | null) => void,
): Promise<void>;
