/** Seeded PRNG (mulberry32): the same chunking on every run. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const CHAT = '3f2b1c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';
const REQUEST = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';

// Some multi-byte words, so that random cuts split UTF-8 sequences too.
const WORDS = ['the ', 'answer ', 'is ', 'café ', 'naïve ', '42, ', 'and ', '日本 ', 'so ', 'on 🙂 ', 'ok. '];

export function sseEvent(name: string, payload: unknown): string {
  return `event: ${name}\ndata: ${JSON.stringify(payload)}\n\n`;
}

export const startEvent = () =>
  sseEvent('message.start', { chat_id: CHAT, message_id: 7, request_id: REQUEST });

/** The terminal event of a turn whose answer is `content`. */
export function completedEvent(content: string): string {
  return sseEvent('message.completed', {
    id: 7,
    chat_id: CHAT,
    role: 'assistant',
    content,
    usage: { prompt_tokens: 3, completion_tokens: 5, total_tokens: 8, model: 'm', provider: 'p' },
    steps: [],
    sources: [],
    anonymization: null,
    metadata: null,
  });
}

/** The i-th delta's text. */
export const deltaText = (i: number) => WORDS[i % WORDS.length]!;

/**
 * A whole turn as SSE bytes: start, `count` deltas, completed; and the answer. `spaced` writes the deltas
 * as Python's json.dumps does (`{"text": "...", "replace": false}`) instead of JSON.stringify's compact form.
 */
export function turnBytes(count: number, spaced = false): { bytes: Uint8Array; content: string } {
  const parts = [startEvent()];
  const texts: string[] = [];
  for (let i = 0; i < count; i++) {
    const text = deltaText(i);
    texts.push(text);
    parts.push(
      spaced
        ? `event: message.delta\ndata: {"text": ${JSON.stringify(text)}, "replace": false}\n\n`
        : sseEvent('message.delta', { text, replace: false }),
    );
  }
  const content = texts.join('');
  parts.push(completedEvent(content));
  return { bytes: new TextEncoder().encode(parts.join('')), content };
}

/** Cuts `bytes` into chunks of 1 to `max` bytes, seeded. */
export function cut(bytes: Uint8Array, seed: number, max = 4096): Uint8Array[] {
  const next = random(seed);
  const chunks: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; ) {
    const size = 1 + Math.floor(next() * max);
    chunks.push(bytes.subarray(at, at + size));
    at += size;
  }
  return chunks;
}

/** A body that hands out `chunks` one per pull, as a network body would. */
export function bodyOf(chunks: Uint8Array[], onPull?: (index: number) => void): ReadableStream<Uint8Array> {
  let index = 0;
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        onPull?.(index);
        if (index < chunks.length) controller.enqueue(chunks[index++]!);
        else controller.close();
      },
    },
    { highWaterMark: 0 },
  );
}
