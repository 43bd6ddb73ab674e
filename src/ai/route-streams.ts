import { RouteCapacityError } from '../index.js';

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
    // Set by `start`, which runs before any cancel.
    let own: ReadableStreamDefaultController<string>;
    return new ReadableStream<string>({
      start(controller) {
        own = controller;
        for (const chunk of stream.chunks) controller.enqueue(chunk);
        stream.readers.add(controller);
      },
      cancel() {
        stream.readers.delete(own);
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

/** `stream` read through; `left` runs once, when it ended, failed or was cancelled. */
export function watched(stream: ReadableStream<string>, left: () => void): ReadableStream<string> {
  const reader = stream.getReader();
  let gone = false;
  const leave = () => {
    if (gone) return;
    gone = true;
    left();
  };
  return new ReadableStream<string>({
    async pull(controller) {
      try {
        const next = await reader.read();
        if (next.done) {
          leave();
          controller.close();
        } else controller.enqueue(next.value);
      } catch (error) {
        leave();
        controller.error(error);
      }
    },
    cancel(reason) {
      leave();
      return reader.cancel(reason);
    },
  });
}
