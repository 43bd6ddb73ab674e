/** How a body whose cancel never settles ends once its text is out. */
export interface StuckShape {
  /** Byte sizes to cut the text into (cycled); default one chunk. */
  chunks?: number[];
  /** After the text: close the body (default), or stay open without a byte. */
  end?: 'close' | 'stall';
  /** Content type of the response; default `application/json`. */
  type?: string;
  /** Status of the response; default 200. */
  status?: number;
}

/** What a stuck body saw: how many times it was cancelled. */
export interface StuckProbe {
  cancels: number;
}

/**
 * A Response whose body's `cancel()` returns a promise that never settles, as msw 2.x's mocked responses do:
 * a caller that awaits it hangs. `probe.cancels` counts the cancels asked for. Build one per request (a
 * clone's cancel waits for its twin, which would hide what this tests).
 */
export function stuckResponse(text: string, shape: StuckShape = {}, probe?: StuckProbe): Response {
  const bytes = new TextEncoder().encode(text);
  const sizes = shape.chunks ?? [bytes.length || 1];
  let offset = 0;
  let turn = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset < bytes.length) {
        const size = sizes[turn++ % sizes.length]!;
        controller.enqueue(bytes.slice(offset, offset + size));
        offset += size;
        return;
      }
      if (shape.end === 'stall') return new Promise(() => {});
      controller.close();
    },
    cancel() {
      if (probe) probe.cancels++;
      return new Promise(() => {});
    },
  });
  return new Response(body, {
    status: shape.status ?? 200,
    headers: { 'content-type': shape.type ?? 'application/json' },
  });
}
