import { createParser } from 'eventsource-parser';

/** One entry of a turn's timeline as the inspector shows it. */
export type TimelineEntry =
  /** Consecutive deltas folded into the text they build; `replaced` counts `replace: true` deltas. */
  | { type: 'text'; text: string; deltas: number; replaced: number }
  /** Consecutive pings, counted. */
  | { type: 'ping'; count: number }
  /** Any other event, with its payload (`message.start`, `.step`, `.action_required`, terminal ones). */
  | { type: 'event'; event: string; data: unknown };

/** The events one stream response carried, as its client received them. */
export interface StreamTimeline {
  /** The turn, from `message.start`; undefined until it arrived. */
  turnId: number | undefined;
  /** The chat, from `message.start`. */
  chatId: string | undefined;
  /** Folded entries, in order. */
  entries: TimelineEntry[];
  /** Whether a terminal event arrived. */
  ended: boolean;
  /** Whether the response ended before its terminal event (a cut, a client that went away). */
  broken: boolean;
}

/** Entries kept per stream; past it the oldest non-start entries go (a `hang` turn pings forever). */
const MAX_ENTRIES = 300;
const TERMINAL = new Set(['message.completed', 'message.cancelled', 'message.error']);

/** Folds the bytes of one event stream into a `StreamTimeline`, chunk by chunk. */
export class TimelineBuilder {
  readonly timeline: StreamTimeline = {
    turnId: undefined,
    chatId: undefined,
    entries: [],
    ended: false,
    broken: false,
  };
  readonly #decoder = new TextDecoder();
  readonly #parser = createParser({ onEvent: ({ event, data }) => this.#add(event ?? 'message', data) });

  /** Feeds a chunk of the response body. */
  push(chunk: Uint8Array): void {
    this.#parser.feed(this.#decoder.decode(chunk, { stream: true }));
  }

  /** The body ended, failed or was cancelled: without a terminal event first, the stream broke. */
  end(): void {
    this.timeline.broken = !this.timeline.ended;
  }

  #add(event: string, raw: string): void {
    let data: unknown;
    try {
      data = JSON.parse(raw);
    } catch {
      data = raw;
    }
    const { entries } = this.timeline;
    const last = entries.at(-1);
    const payload = (typeof data === 'object' && data !== null ? data : {}) as Record<string, unknown>;
    if (event === 'message.delta' && typeof payload.text === 'string') {
      const replace = payload.replace === true;
      if (last?.type === 'text') {
        last.text = replace ? payload.text : last.text + payload.text;
        last.deltas += 1;
        if (replace) last.replaced += 1;
      } else entries.push({ type: 'text', text: payload.text, deltas: 1, replaced: replace ? 1 : 0 });
    } else if (event === 'ping') {
      if (last?.type === 'ping') last.count += 1;
      else entries.push({ type: 'ping', count: 1 });
    } else {
      if (event === 'message.start') {
        if (typeof payload.message_id === 'number') this.timeline.turnId = payload.message_id;
        if (typeof payload.chat_id === 'string') this.timeline.chatId = payload.chat_id;
      }
      if (TERMINAL.has(event)) this.timeline.ended = true;
      entries.push({ type: 'event', event, data });
    }
    if (entries.length > MAX_ENTRIES) entries.splice(1, entries.length - MAX_ENTRIES);
  }
}

/**
 * `body`, read one chunk per pull like the original (no buffer, so pings keep their timing), with each
 * chunk shown to `builder` on its way to the client; `ended` is called once it ended, failed or was
 * cancelled. Cancelling it cancels `body`.
 */
export function observedBody(
  body: ReadableStream<Uint8Array>,
  builder: TimelineBuilder,
  ended: () => void,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const end = () => {
    builder.end();
    ended();
  };
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const { done, value } = await reader.read();
          if (done) {
            end();
            controller.close();
            return;
          }
          builder.push(value);
          controller.enqueue(value);
        } catch (error) {
          end();
          controller.error(error);
        }
      },
      cancel(reason) {
        end();
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}
