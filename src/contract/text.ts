/**
 * How the contract's "characters" are counted, the same in the client and the mock: Unicode code points
 * (an astral character such as an emoji is one, a combining mark is one of its own), which is what a
 * service written in most server languages counts, and never more than JavaScript's UTF-16 `length`.
 */
export function charCount(text: string): number {
  let count = text.length;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    // A high surrogate followed by a low one is a single code point.
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        count--;
        i++;
      }
    }
  }
  return count;
}

const encoder = new TextEncoder();

/**
 * Bytes of `value` serialized as UTF-8 JSON: what the metadata limit counts. Undefined when JSON cannot
 * hold it (a BigInt, a cycle): such a value can never be sent.
 */
export function jsonByteLength(value: unknown): number | undefined {
  try {
    return encoder.encode(JSON.stringify(value) ?? '').byteLength;
  } catch {
    return undefined;
  }
}
