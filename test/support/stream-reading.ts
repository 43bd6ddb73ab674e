// Reading a stream of text in tests: what arrived so far, without waiting for its end.

/** Lets pending work run for a count of macrotasks (not a duration). */
export async function settle(count = 10): Promise<void> {
  for (let turn = 0; turn < count; turn++) await new Promise((resolve) => setImmediate(resolve));
}

/**
 * A reader of `stream` whose `now()` gives what arrived so far (a read left waiting is kept for the next): what
 * arrives within `patience` macrotasks of the last chunk.
 */
export function reading(stream: ReadableStream<string> | null | undefined, patience = 5) {
  const reader = (stream as ReadableStream<string>).getReader();
  let pending: Promise<ReadableStreamReadResult<string>> | undefined;
  return {
    async now(): Promise<{ text: string; done: boolean }> {
      let text = '';
      for (;;) {
        pending ??= reader.read();
        const next = await Promise.race([pending, settle(patience).then(() => undefined)]);
        if (!next) return { text, done: false };
        pending = undefined;
        if (next.done) return { text, done: true };
        text += next.value;
      }
    },
  };
}
