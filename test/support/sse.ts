/** One SSE event to write: a name and a JSON payload (or raw data text). */
export type WireEvent = [event: string, data: unknown];

/** The SSE text of `events`. */
export function sseText(events: WireEvent[]): string {
  return events
    .map(
      ([event, data]) =>
        `event: ${event}\ndata: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`,
    )
    .join('');
}

/** How a fake SSE body ends. */
export interface BodyShape {
  /** Byte sizes to cut the text into (cycled); default one chunk. */
  chunks?: number[];
  /** After all chunks: end (default), error, or stay open without a byte. */
  end?: 'close' | 'error' | 'stall';
}

/**
 * A body carrying `text`, cut and ended as `shape` says; `cancel`, when given, is what the body's own
 * cancel does (a fetch implementation's quirk under test).
 */
export function chunkedBody(
  text: string,
  shape: BodyShape = {},
  cancel?: () => Promise<void>,
): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  const sizes = shape.chunks ?? [bytes.length || 1];
  let offset = 0;
  let turn = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset < bytes.length) {
        const size = sizes[turn++ % sizes.length]!;
        controller.enqueue(bytes.slice(offset, offset + size));
        offset += size;
        return;
      }
      if (shape.end === 'error') controller.error(new TypeError('terminated'));
      else if (shape.end === 'stall') return new Promise(() => {});
      else controller.close();
    },
    ...(cancel ? { cancel } : {}),
  });
}

/** A streamed Response body carrying `text`, cut and ended as `shape` says. */
export function sseResponse(text: string, shape: BodyShape = {}): Response {
  return new Response(chunkedBody(text, shape), { headers: { 'content-type': 'text/event-stream' } });
}

export const CHAT = '3f2b1c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';

/** A finished turn payload with `content`. */
export function finished(content: string, extra: Record<string, unknown> = {}) {
  return {
    id: 7,
    chat_id: CHAT,
    role: 'assistant',
    content,
    usage: null,
    steps: [],
    sources: [],
    anonymization: null,
    metadata: null,
    ...extra,
  };
}

/** A whole turn on the wire: start, the deltas, and a terminal event. */
export function turnEvents(deltas: Array<string | [string, boolean]>, content?: string): WireEvent[] {
  const folded = deltas.reduce<string>(
    (text, d) => (Array.isArray(d) ? (d[1] ? d[0] : text + d[0]) : text + d),
    '',
  );
  return [
    ['message.start', { chat_id: CHAT, message_id: 7, request_id: 'req-1' }],
    ...deltas.map(
      (d): WireEvent => [
        'message.delta',
        Array.isArray(d) ? { text: d[0], replace: d[1] } : { text: d, replace: false },
      ],
    ),
    ['message.completed', finished(content ?? folded)],
  ];
}
