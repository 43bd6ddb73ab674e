import { RouteCapacityError } from '../index.js';
import { type RouteStreams, watched } from './route-streams.js';

/** How many bytes of live answers a route process holds for a resume at most, by default: 128 MiB. */
export const MAX_HELD_BYTES = 128 * 1024 * 1024;
/** How many bytes of live answers one caller's turns hold at most, by default: 32 MiB. */
export const MAX_CALLER_BYTES = 32 * 1024 * 1024;
/** How many live answers one caller holds at once at most, by default. */
export const MAX_CALLER_STREAMS = 16;

/** The bounds of the answers a route process holds. */
export interface HoldBounds {
  /** Live answers at once. */
  maxStreams: number;
  /** Bytes of every answer held, in total. */
  maxBytes: number;
  /** Live answers of one caller at once. */
  callerStreams: number;
  /** Bytes of one caller's answers held. */
  callerBytes: number;
}

/** One answer being read: sent on to the page that asked for it, and fed to the engine for resumes. */
interface Hold {
  readonly caller: string;
  /** Bytes fed to the engine so far (each chunk's UTF-16 length: what a JS string of text costs). */
  bytes: number;
  /** The engine's copy: cut off (`released`) past a bound, which frees it; the page's read goes on. */
  feed: ReadableStreamDefaultController<string> | undefined;
  /** The page's read, until it goes (a reload, a closed tab). */
  page: ReadableStreamDefaultController<string> | undefined;
  /** Resumes following the held answer in this process. */
  followers: number;
  /** Stops reading the answer (the turn runs on). */
  stop: () => void;
}

/** The chunk that ends an answer a bound released: its reader reads the turn again by key. */
const RELEASED = `data: ${JSON.stringify({
  type: 'error',
  errorText: 'the held answer was released (maxHeldBytes): resume to read the turn again',
})}\n\n`;

/**
 * The answers a route process holds for resumes, bounded in count and in bytes, in total and per caller:
 * each answer is read once, sent on to the page that asked for it and fed to the engine (`memoryStreams`,
 * or `resumable-stream` on Redis) that replays it to a resume. Past a byte bound the oldest holds nobody reads
 * are released first (then the oldest): the engine forgets them, their pages read on, and a resume reads the
 * turn again by its key.
 */
export class Holds {
  readonly #engine: RouteStreams;
  readonly #bounds: HoldBounds;
  /** Live holds, oldest first. */
  readonly #held = new Map<string, Hold>();
  #bytes = 0;

  constructor(engine: RouteStreams, bounds: HoldBounds) {
    this.#engine = engine;
    this.#bounds = bounds;
  }

  /** Bytes held now, in total. */
  get bytes(): number {
    return this.#bytes;
  }

  /** Whether the answer `streamId` is being read now (held or released, not yet ended). */
  reading(streamId: string): boolean {
    return this.#held.has(streamId);
  }

  /** Throws a `RouteCapacityError` when a new answer of `caller` may not be held: check before sending. */
  admit(caller: string): void {
    let own = 0;
    for (const hold of this.#held.values()) if (hold.caller === caller) own++;
    if (this.#held.size >= this.#bounds.maxStreams) throw new RouteCapacityError(this.#bounds.maxStreams);
    if (own >= this.#bounds.callerStreams) throw new RouteCapacityError(this.#bounds.callerStreams, 'caller');
  }

  /**
   * Reads `makeSource()` to its end, for the page (the stream returned) and for resumes under `streamId`;
   * `settle` runs once it ended, before the engine's copy ends (so a resume elsewhere finds what the end
   * wrote). Nothing is read before the answer may be held: past a count bound, a `RouteCapacityError`. An
   * engine that fails otherwise (Redis went away) leaves the answer unheld: the page reads it all the same.
   */
  async open(
    streamId: string,
    caller: string,
    makeSource: () => ReadableStream<string>,
    settle: () => Promise<void>,
  ): Promise<ReadableStream<string>> {
    this.admit(caller);
    const hold: Hold = { caller, bytes: 0, feed: undefined, page: undefined, followers: 0, stop: () => {} };
    this.#held.delete(streamId);
    this.#held.set(streamId, hold);
    try {
      const copy = await this.#engine.createNewResumableStream(
        streamId,
        () =>
          new ReadableStream<string>({
            start: (controller) => {
              hold.feed = controller;
            },
          }),
      );
      // The engine reads its copy itself; what it returns would only queue a second copy.
      void copy?.cancel().catch(() => {});
    } catch (error) {
      if (error instanceof RouteCapacityError) {
        this.#drop(streamId, hold);
        throw error;
      }
      close(hold.feed);
      hold.feed = undefined;
    }
    const reader = makeSource().getReader();
    hold.stop = () => void reader.cancel().catch(() => {});
    const page = new ReadableStream<string>({
      start: (controller) => {
        hold.page = controller;
      },
      cancel: () => {
        hold.page = undefined;
        if (!hold.feed) hold.stop();
      },
    });
    void this.#pump(streamId, hold, reader, settle);
    return page;
  }

  /** The held answer from its start, then live (see `RouteStreams.resumeExistingStream`). */
  async resume(streamId: string): Promise<ReadableStream<string> | null | undefined> {
    const stream = await this.#engine.resumeExistingStream(streamId);
    const hold = this.#held.get(streamId);
    if (!stream || !hold) return stream;
    hold.followers++;
    return watched(stream, () => {
      hold.followers--;
    });
  }

  async #pump(
    streamId: string,
    hold: Hold,
    reader: ReadableStreamDefaultReader<string>,
    settle: () => Promise<void>,
  ): Promise<void> {
    try {
      for (;;) {
        const next = await reader.read();
        if (next.done) break;
        send(hold.page, next.value);
        if (hold.feed) {
          hold.feed.enqueue(next.value);
          hold.bytes += next.value.length;
          this.#bytes += next.value.length;
          this.#bound(hold);
        }
      }
      await settle().catch(() => {});
      close(hold.page);
      close(hold.feed);
    } catch (error) {
      fail(hold.page, error);
      fail(hold.feed, error);
    } finally {
      this.#drop(streamId, hold);
    }
  }

  /** Releases holds past the caller's share, then past the total: the oldest nobody reads first. */
  #bound(grown: Hold): void {
    const own = [...this.#held.values()].filter((hold) => hold.caller === grown.caller);
    let callerBytes = own.reduce((sum, hold) => sum + hold.bytes, 0);
    for (let victim = pick(own); victim && callerBytes > this.#bounds.callerBytes; victim = pick(own))
      callerBytes -= this.#release(victim);
    const all = [...this.#held.values()];
    for (let victim = pick(all); victim && this.#bytes > this.#bounds.maxBytes; victim = pick(all))
      this.#release(victim);
  }

  /** Cuts `hold` off from the engine (which frees its copy); the bytes freed. */
  #release(hold: Hold): number {
    const freed = hold.bytes;
    send(hold.feed, RELEASED);
    close(hold.feed);
    hold.feed = undefined;
    // Nobody reads it any more: its reading stops (a resume reads the turn again by key).
    if (!hold.page) hold.stop();
    this.#bytes -= freed;
    hold.bytes = 0;
    return freed;
  }

  #drop(streamId: string, hold: Hold): void {
    if (this.#held.get(streamId) === hold) this.#held.delete(streamId);
    this.#bytes -= hold.bytes;
  }
}

/** The hold to release first among `holds` (oldest first): the oldest still fed that nobody reads, else the oldest fed. */
function pick(holds: Hold[]): Hold | undefined {
  const fed = holds.filter((hold) => hold.feed);
  return fed.find((hold) => !hold.page && hold.followers === 0) ?? fed[0];
}

function send(controller: ReadableStreamDefaultController<string> | undefined, chunk: string): void {
  try {
    // Stryker disable next-line OptionalChaining: without `?.` an absent controller throws a TypeError, which the catch below drops
    controller?.enqueue(chunk);
  } catch {
    // Its reader went away.
  }
}

function close(controller: ReadableStreamDefaultController<string> | undefined): void {
  try {
    // Stryker disable next-line OptionalChaining: without `?.` an absent controller throws a TypeError, which the catch below drops
    controller?.close();
  } catch {
    // Already closed.
  }
}

function fail(controller: ReadableStreamDefaultController<string> | undefined, error: unknown): void {
  try {
    // Stryker disable next-line OptionalChaining: without `?.` an absent controller throws a TypeError, which the catch below drops
    controller?.error(error);
  } catch {
    // Already closed.
  }
}
