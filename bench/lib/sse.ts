export { bodyOf, cut, random } from './seeded.mjs';

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
