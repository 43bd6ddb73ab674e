import { ConvoError } from '../index.js';

/**
 * Where a route keeps the streams it answers, so that another request (a reload's `GET …/stream`) can
 * read one again from its start and follow it live. The AI SDK's `resumable-stream` context
 * (`createResumableStreamContext`, on Redis) is one, shared by every process; `memoryStreams()` is the
 * default, for one process.
 */
export interface RouteStreams {
  /** Starts reading `makeStream()` to its end, whoever reads the stream returned; null when it already ended. */
  createNewResumableStream(
    streamId: string,
    makeStream: () => ReadableStream<string>,
  ): Promise<ReadableStream<string> | null>;
  /** The stream from its start, then live; null when it ended, undefined when it is not known. */
  resumeExistingStream(streamId: string): Promise<ReadableStream<string> | null | undefined>;
}

/** How many streams `memoryStreams()` holds at once by default. */
export const MAX_LIVE_STREAMS = 1000;

/** A route already holds as many live streams as it may; the request is refused, nothing was sent. */
export class RouteCapacityError extends ConvoError {
  override name = 'RouteCapacityError';
  /** The number of streams held. */
  readonly limit: number;

  constructor(limit: number) {
    super(`the route already holds ${limit} live streams (maxStreams): try again when one ends`);
    this.limit = limit;
  }
}

/** A stream being read: what it gave so far and who follows it. */
interface Held {
  chunks: string[];
  readers: Set<ReadableStreamDefaultController<string>>;
}

/**
 * Streams held in this process until they end (then forgotten: a later resume reads the turn again by
 * its key), at most `maxStreams` at once. Each is read to its end even when nobody follows it: a reload
 * closes the request, not the turn.
 */
export function memoryStreams(maxStreams = MAX_LIVE_STREAMS): RouteStreams {
  const held = new Map<string, Held>();
  const follow = (stream: Held) => {
    let own: ReadableStreamDefaultController<string> | undefined;
    return new ReadableStream<string>({
      start(controller) {
        own = controller;
        for (const chunk of stream.chunks) controller.enqueue(chunk);
        stream.readers.add(controller);
      },
      cancel() {
        if (own) stream.readers.delete(own);
      },
    });
  };
  return {
    async createNewResumableStream(streamId, makeStream) {
      if (held.size >= maxStreams && !held.has(streamId)) throw new RouteCapacityError(maxStreams);
      const stream: Held = { chunks: [], readers: new Set() };
      held.set(streamId, stream);
      const reader = makeStream().getReader();
      const end = (fail?: unknown) => {
        if (held.get(streamId) === stream) held.delete(streamId);
        for (const controller of stream.readers)
          if (fail === undefined) controller.close();
          else controller.error(fail);
        stream.readers.clear();
      };
      const pump = async (): Promise<void> => {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return end();
          stream.chunks.push(value);
          for (const controller of stream.readers) controller.enqueue(value);
        }
      };
      const readable = follow(stream);
      pump().catch(end);
      return readable;
    },
    async resumeExistingStream(streamId) {
      const stream = held.get(streamId);
      return stream ? follow(stream) : undefined;
    },
  };
}
