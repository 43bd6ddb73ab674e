import type { TurnStream } from '../index.js';
import { type ConvoChunk, type SegmentContext, type SegmentEnd, turnChunks } from './chunks.js';

/** What stopping a chat does to its turn: cancel it on the service, or only stop reading it. */
export type StopMode = 'cancel' | 'abort';

/**
 * One segment of `stream` as a `ReadableStream` of UI chunks. At a tool approval the reading stops (the
 * turn waits on the service for the answer). Cancelling the stream, or `signal` aborting, stops the turn
 * as `stop` says.
 */
export function segmentStream(
  stream: TurnStream,
  context: SegmentContext,
  stop: StopMode,
  signal?: AbortSignal | undefined,
): ReadableStream<ConvoChunk> {
  const chunks = turnChunks(stream[Symbol.asyncIterator](), context);
  let over = false;
  const halt = () => {
    if (over) return;
    over = true;
    signal?.removeEventListener('abort', halt);
    if (stop === 'abort') stream.abort();
    // Cancelling needs the turn's id, which comes with its first event: stop reading once it is sent.
    else
      stream.cancel().then(
        () => stream.abort(),
        () => stream.abort(),
      );
  };
  if (signal?.aborted) halt();
  signal?.addEventListener('abort', halt, { once: true });
  const finish = (end: SegmentEnd) => {
    signal?.removeEventListener('abort', halt);
    over = true;
    // Paused at a tool approval: free the connection; the continuation reads the turn again by its key.
    if (end === 'tool_approval') stream.abort();
  };
  let cancelled = false;
  return new ReadableStream<ConvoChunk>({
    async pull(controller) {
      const next = await chunks.next();
      if (cancelled) return;
      if (next.done) {
        finish(next.value);
        controller.close();
      } else controller.enqueue(next.value);
    },
    cancel() {
      cancelled = true;
      halt();
    },
  });
}

/** Options of `toUIMessageStream`. */
export interface UIStreamOptions {
  /** The UI message's id; `convo-` and the turn's key when absent. */
  messageId?: string | undefined;
  /** What cancelling the UI stream (the browser went away, `stop()`) does to the turn (default `cancel`). */
  stop?: StopMode | undefined;
}

/**
 * A streamed turn as the AI SDK's UI message stream, for a server route that answers `useChat`'s default
 * transport (`createUIMessageStreamResponse({ stream: toUIMessageStream(turn) })`). The mapping is
 * `ConvoChatTransport`'s; at a tool approval the stream ends and the turn waits for its answer, which the
 * next request gives through `ConvoChatTransport.sendMessages`.
 */
export function toUIMessageStream(
  stream: TurnStream,
  options: UIStreamOptions = {},
): ReadableStream<ConvoChunk> {
  const context = {
    messageId: options.messageId ?? `convo-${stream.idempotencyKey}`,
    chatId: stream.chatId,
    idempotencyKey: stream.idempotencyKey,
    shown: '',
    tools: new Set<string>(),
  };
  return segmentStream(stream, context, options.stop ?? 'cancel');
}
