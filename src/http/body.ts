import { ResponseTooLargeError } from '../errors/index.js';

/**
 * The body as text, read chunk by chunk and stopped with `ResponseTooLargeError` once it passes `limit`
 * decoded bytes (what fetch hands over after decompression, so a compression bomb counts in full). `signal`
 * cancels the read itself: a fetch made with a `Request` can lose its abort after a GC.
 */
export async function readText(response: Response, limit: number, signal: AbortSignal): Promise<string> {
  const body = response.body;
  if (!body) return '';
  const reader = body.getReader();
  const onAbort = () => reader.cancel(signal.reason).catch(() => {});
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        reader.cancel().catch(() => {});
        throw new ResponseTooLargeError(limit);
      }
      chunks.push(value);
    }
    signal.throwIfAborted();
    return decode(chunks, size);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

const decoder = new TextDecoder();

function decode(chunks: Uint8Array[], size: number): string {
  if (chunks.length === 1) return decoder.decode(chunks[0]);
  const all = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.byteLength;
  }
  return decoder.decode(all);
}

/** The body as JSON when it parses, as text otherwise, `undefined` when empty. */
export function parseBody(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
