/** Whitespace-separated words of `text`: what the mock counts as tokens. */
export function countWords(text: string): number {
  const trimmed = text.trim();
  return trimmed === '' ? 0 : trimmed.split(/\s+/).length;
}

/**
 * `text` cut into word-sized deltas: each word with the whitespace that follows it, so that the deltas
 * concatenate to `text` exactly (`"a b"` gives `["a ", "b"]`).
 */
export function wordDeltas(text: string): string[] {
  return text.match(/\s*\S+\s*/g) ?? (text === '' ? [] : [text]);
}
