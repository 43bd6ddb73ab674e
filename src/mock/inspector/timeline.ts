import { createParser } from 'eventsource-parser';
import { DeltaMask, TokenMask } from './masking.js';

/**
 * One entry of a turn's timeline as the inspector shows it; `at` is the milliseconds since the request
 * arrived, `to` those of the last event folded into it.
 */
export type TimelineEntry =
  /**
   * Consecutive deltas folded into the text they build, as the client holds it. A `replace: true` delta
   * starts a new entry with `replace` set: the text before it was dropped there.
   */
  | {
      type: 'text';
      text: string;
      deltas: number;
      replace: boolean;
      at: number;
      to: number;
      /** Characters past `TEXT_CAP` that were not kept. */
      clipped?: number;
    }
  /** Consecutive pings, counted. */
  | { type: 'ping'; count: number; at: number; to: number }
  /** Any other event, with its payload (`message.start`, `.step`, `.action_required`, terminal ones). */
  | { type: 'event'; event: string; data: unknown; at: number };

/** One event of a stream as it arrived: its time since the request, its name and its `data` text (tokens masked). */
export interface StreamEvent {
  /** Milliseconds since the request arrived. */
  at: number;
  /** The SSE event name. */
  event: string;
  /** The `data` text, as sent. */
  data: string;
}

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
  /** The `message_code` of a `message.error`, once one arrived. */
  errorCode: string | undefined;
}

/** Entries and events kept per stream; past it the oldest after the first go (a `hang` turn pings forever). */
const MAX_ENTRIES = 300;
const MAX_EVENTS = 500;
/** Characters of event data kept per stream (the oldest after the first go), and per event. */
const EVENTS_CHARS = 256 * 1024;
const EVENT_CHARS = 16 * 1024;
/** Characters of folded text kept per text entry (a 100,000-word answer is some 700 KB). */
const TEXT_CAP = 64 * 1024;
/** Characters of a string kept inside a timeline event's payload (the text entries hold the text). */
const PAYLOAD_STRING = 1000;
/** Items kept of each array and object of a payload, its depth, and the characters of one payload. */
const PAYLOAD_ITEMS = 50;
const PAYLOAD_DEPTH = 8;
const PAYLOAD_CHARS = 16 * 1024;
/**
 * Characters of folded text and payloads kept per stream, across its entries (every replace starts an
 * entry): past it the oldest entries after the first go.
 */
const TIMELINE_CHARS = 256 * 1024;
const TERMINAL = new Set(['message.completed', 'message.cancelled', 'message.error']);

/** Folds the bytes of one event stream into a `StreamTimeline` and its raw events, chunk by chunk. */
export class TimelineBuilder {
  readonly timeline: StreamTimeline = {
    turnId: undefined,
    chatId: undefined,
    entries: [],
    ended: false,
    broken: false,
    errorCode: undefined,
  };
  /**
   * The events as they came, with their times: at most `MAX_EVENTS` and `EVENTS_CHARS` of data, each event's
   * data cut at `EVENT_CHARS`; the first event is always kept.
   */
  readonly events: StreamEvent[] = [];
  /** Events forgotten past those bounds. */
  dropped = 0;
  /** Events seen so far, kept or not: a poll compares it to know whether the stream changed. */
  seen = 0;
  #eventChars = 0;
  #timelineChars = 0;
  readonly #sizes = new WeakMap<TimelineEntry, number>();
  readonly #decoder = new TextDecoder();
  readonly #parser = createParser({ onEvent: ({ event, data }) => this.#add(event ?? 'message', data) });
  readonly #since: () => number;
  readonly #mask: TokenMask;
  /** A token the model writes across deltas, masked in each event that holds a part of it. */
  readonly #deltas: DeltaMask;

  /**
   * `since` gives the milliseconds since the request arrived (0 by default, for tests); `mask` masks the
   * tokens of every event's data and payload before it is cut (the folded text is masked when shown:
   * a token may span deltas).
   */
  constructor(since: () => number = () => 0, mask = new TokenMask([])) {
    this.#since = since;
    this.#mask = mask;
    this.#deltas = new DeltaMask(mask);
  }

  /** Feeds a chunk of the response body. */
  push(chunk: Uint8Array): void {
    this.#parser.feed(this.#decoder.decode(chunk, { stream: true }));
  }

  /** The body ended, failed or was cancelled: without a terminal event first, the stream broke. */
  end(): void {
    this.timeline.broken = !this.timeline.ended;
  }

  #add(event: string, raw: string): void {
    const at = this.#since();
    this.seen += 1;
    const kept: StreamEvent = { at, event, data: this.#eventData(raw) };
    this.#keep(kept);
    let data: unknown;
    try {
      data = JSON.parse(raw);
    } catch {
      data = this.#mask.text(raw);
    }
    const { entries } = this.timeline;
    const last = entries.at(-1);
    const payload = (typeof data === 'object' && data !== null ? data : {}) as Record<string, unknown>;
    if (event === 'message.delta' && typeof payload.text === 'string') {
      const replace = payload.replace === true;
      if (replace) this.#deltas.restart();
      this.#deltas.add(payload.text, (text) => {
        kept.data = this.#eventData(JSON.stringify({ ...payload, text }));
      });
      const entry =
        last?.type === 'text' && !replace
          ? last
          : { type: 'text' as const, text: '', deltas: 0, replace, at, to: at };
      if (entry !== last) entries.push(entry);
      const room = TEXT_CAP - entry.text.length;
      const added = payload.text.slice(0, Math.max(0, room));
      entry.text += added;
      this.#timelineChars += added.length;
      if (payload.text.length > room)
        entry.clipped = (entry.clipped ?? 0) + payload.text.length - Math.max(0, room);
      entry.deltas += 1;
      entry.to = at;
    } else if (event === 'ping') {
      if (last?.type === 'ping') {
        last.count += 1;
        last.to = at;
      } else entries.push({ type: 'ping', count: 1, at, to: at });
    } else {
      if (event === 'message.start') {
        if (typeof payload.message_id === 'number') this.timeline.turnId = payload.message_id;
        if (typeof payload.chat_id === 'string') this.timeline.chatId = this.#mask.text(payload.chat_id);
      }
      if (event === 'message.error' && typeof payload.code === 'string')
        this.timeline.errorCode = this.#mask.text(payload.code);
      if (TERMINAL.has(event)) this.timeline.ended = true;
      const clipped = boundPayload(this.#mask.json(data), PAYLOAD_CHARS);
      const entry: TimelineEntry = { type: 'event', event, data: clipped, at };
      const size = JSON.stringify(clipped)?.length ?? 0;
      this.#sizes.set(entry, size);
      this.#timelineChars += size;
      entries.push(entry);
    }
    while (entries.length > 1 && (entries.length > MAX_ENTRIES || this.#timelineChars > TIMELINE_CHARS)) {
      const [gone] = entries.splice(1, 1);
      if (gone) this.#timelineChars -= gone.type === 'text' ? gone.text.length : (this.#sizes.get(gone) ?? 0);
    }
  }

  /** An event's data as kept: masked, then cut at `EVENT_CHARS`, saying how much was cut. */
  #eventData(raw: string): string {
    const kept = this.#mask.cut(this.#mask.body(raw, true), EVENT_CHARS);
    return kept.truncated ? `${kept.text}…(+${kept.chars - kept.text.length} chars)` : kept.text;
  }

  /** Keeps `event`, then forgets the oldest after the first while past `MAX_EVENTS` or `EVENTS_CHARS`. */
  #keep(event: StreamEvent): void {
    this.events.push(event);
    this.#eventChars += event.data.length;
    while (this.events.length > 1 && (this.events.length > MAX_EVENTS || this.#eventChars > EVENTS_CHARS)) {
      const [gone] = this.events.splice(1, 1);
      this.#eventChars -= gone?.data.length ?? 0;
      this.dropped += 1;
    }
  }
}

/** `text` cut at `max` characters, saying how many more there were. */
function clipString(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…(+${text.length - max} chars)`;
}

/** A parsed payload bounded as `clipPayload` bounds it, the whole at about `chars` characters. */
export function boundPayload(value: unknown, chars: number): unknown {
  return clipPayload(value, { chars }, 0);
}

/**
 * A parsed payload bounded: every string cut at `PAYLOAD_STRING` characters, each array and object at
 * `PAYLOAD_ITEMS` items (`…` says how many more), nesting at `PAYLOAD_DEPTH`, and the whole at about
 * `room.chars` characters (what is past it is counted, not kept).
 */
function clipPayload(value: unknown, room: { chars: number }, depth: number): unknown {
  if (typeof value === 'string') {
    const kept = clipString(value, Math.max(0, Math.min(PAYLOAD_STRING, room.chars)));
    room.chars -= kept.length + 2;
    return kept;
  }
  if (typeof value !== 'object' || value === null) {
    room.chars -= String(value).length;
    return value;
  }
  if (depth >= PAYLOAD_DEPTH) {
    room.chars -= 3;
    return '…';
  }
  const items: Array<[string, unknown]> = Array.isArray(value)
    ? value.map((item, index) => [String(index), item])
    : Object.entries(value);
  const kept: Array<[string, unknown]> = [];
  for (const [key, item] of items) {
    if (kept.length >= PAYLOAD_ITEMS || room.chars <= 0) break;
    room.chars -= key.length + 3;
    kept.push([key, clipPayload(item, room, depth + 1)]);
  }
  const more = items.length - kept.length;
  if (Array.isArray(value)) {
    const out = kept.map(([, item]) => item);
    if (more > 0) out.push(`…(+${more} items)`);
    return out;
  }
  const out = Object.fromEntries(kept);
  if (more > 0) out['…'] = `+${more} keys`;
  return out;
}

/** The events as the text of an event stream (what a HAR holds for a stream's body). */
export function eventText(events: readonly StreamEvent[]): string {
  return events
    .map(
      ({ event, data }) =>
        `event: ${event}\n${data
          .split('\n')
          .map((line) => `data: ${line}\n`)
          .join('')}\n`,
    )
    .join('');
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
  let over = false;
  const end = () => {
    if (over) return;
    over = true;
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
