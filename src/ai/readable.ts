import type { ToolApproval, TurnStream, TurnStreamEvent } from '../index.js';
import { type SegmentContext, type SegmentEnd, turnChunks } from './chunks.js';
import type { ConvoChunk } from './parts.js';

/** What stopping a chat does to its turn: cancel it on the service, or only stop reading it. */
export type StopMode = 'cancel' | 'abort';

/** A turn being read: its stream and the one iterator over it, which successive segments share. */
export interface LiveTurn {
  stream: TurnStream;
  events: AsyncIterator<TurnStreamEvent>;
}

/** Starts reading `stream`. */
export const liveTurn = (stream: TurnStream): LiveTurn => ({
  stream,
  events: stream[Symbol.asyncIterator](),
});

/**
 * One segment of a turn as a `ReadableStream` of UI chunks. At a tool approval the turn is handed to
 * `paused` (which keeps reading it after the answer), or, without one, the reading stops and the turn
 * waits on the service; `ended` is told when the turn ended and every chunk was delivered. Cancelling the stream, or `signal` aborting, stops the turn as `stop` says.
 */
export function segmentStream(
  turn: LiveTurn,
  context: SegmentContext,
  stop: StopMode,
  signal?: AbortSignal | undefined,
  paused?: ((approval: ToolApproval) => void) | undefined,
  ended?: (() => void) | undefined,
): ReadableStream<ConvoChunk> {
  const { stream } = turn;
  const chunks = turnChunks(turn.events, context);
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
    // Ended with the turn: close the read (its watchdog and connection) as a finished `for await` would.
    if (end === 'end' || end === 'broken') void turn.events.return?.();
    else if (paused) paused(end);
    else stream.abort();
  };
  let cancelled = false;
  return new ReadableStream<ConvoChunk>({
    async pull(controller) {
      const next = await chunks.next();
      if (cancelled) return;
      if (next.done) {
        finish(next.value);
        controller.close();
        if (next.value === 'end') ended?.();
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
 * `ConvoChatTransport`'s; at a tool approval the stream ends (the reading stops) and the turn waits for its
 * answer, which the next request gives through `ConvoChatTransport.sendMessages`.
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
  return segmentStream(liveTurn(stream), context, options.stop ?? 'cancel');
}
