import { describe, expect, it } from 'vitest';
import { InspectorInputError, readInput } from '../../src/mock/inspector/input.js';

const URL_ = 'http://127.0.0.1/_inspector/faults';

/** A body that never ends; `pulled` counts the bytes it handed out. */
function endless() {
  const state = { pulled: 0 };
  const chunk = new TextEncoder().encode(`{"a":"${'x'.repeat(16 * 1024)}`);
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      state.pulled += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
  return { state, body };
}

describe('inspector change requests', () => {
  it('refuses a body over 64 KiB by reading at most a chunk past the cap', async () => {
    const { state, body } = endless();
    const request = new Request(URL_, { method: 'POST', body, duplex: 'half' } as RequestInit);
    await expect(readInput(request)).rejects.toThrow(InspectorInputError);
    expect(state.pulled).toBeLessThan(200 * 1024);
  });

  it('refuses on a declared Content-Length over the cap before reading', async () => {
    const { state, body } = endless();
    const request = new Request(URL_, {
      method: 'POST',
      body,
      duplex: 'half',
      headers: { 'content-length': String(300 * 1024 * 1024) },
    } as RequestInit);
    await expect(readInput(request)).rejects.toThrow('over 65536 bytes');
    expect(state.pulled).toBeLessThanOrEqual(64 * 1024);
  });

  it('counts bytes, not characters', async () => {
    const text = JSON.stringify({ a: 'é'.repeat(40_000) });
    expect(text.length).toBeLessThan(64 * 1024);
    await expect(readInput(new Request(URL_, { method: 'POST', body: text }))).rejects.toThrow('over');
    await expect(readInput(new Request(URL_, { method: 'POST', body: '{"a":1}' }))).resolves.toEqual({
      a: 1,
    });
  });
});
