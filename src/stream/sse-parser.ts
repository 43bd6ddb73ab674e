import type { RawEvent } from './sse.js';

const LF = 10;
const CR = 13;
const SPACE = 32;

/**
 * The event-stream format (HTML, "Parsing an event stream") of decoded text, fed a chunk at a time: each
 * complete event is pushed onto `events`. One object per stream whose methods every stream shares (a parser
 * made of closures holds a dozen of them for as long as its stream is open). Lines end with LF, CR or CRLF,
 * also when the pair is split between chunks; a line starting with `:` is a comment; `event` names the
 * event (`message` when none does), `data` lines are joined with LF, an empty line dispatches an event that
 * has data. `id`, `retry` and unknown fields are dropped: a turn is re-read by its key, not by
 * `Last-Event-ID`. The UTF-8 BOM is the decoder's to drop.
 */
export class EventParser {
  /** The events completed so far; the reader takes them after each chunk. */
  events: RawEvent[] = [];
  /** The start of a line whose end has not come yet, in pieces: joined once, when it ends. */
  #partial: string[] = [];
  #partialLength = 0;
  /** The last chunk ended with CR: a LF that starts the next one ends no second line. */
  #afterCR = false;
  #event = '';
  #data = '';
  #hasData = false;
  readonly #maxChars: number;

  /** `maxChars`: the most characters an event's data and its unfinished line may hold together. */
  constructor(maxChars: number) {
    this.#maxChars = maxChars;
  }

  /** Parses one chunk of text; `false` when the event being read grew past `maxChars`. */
  feed(text: string): boolean {
    const length = text.length;
    let at = 0;
    if (this.#afterCR) {
      this.#afterCR = false;
      if (text.charCodeAt(0) === LF) at = 1;
    }
    // Nearly every stream ends its lines with LF alone: one search a line.
    const lf = text.indexOf('\r', at) === -1;
    // The next colon, searched again only once passed: lines without one cost no search to the chunk's end.
    let colon = -1;
    while (at < length) {
      const end = lf ? text.indexOf('\n', at) : lineEnd(text, at);
      if (end === -1) break;
      if (colon < at) colon = firstColon(text, at);
      if (this.#partial.length > 0) {
        this.#partial.push(text.slice(at, end));
        const line = this.#partial.join('');
        this.#partial = [];
        this.#partialLength = 0;
        this.#line(line, 0, line.length, firstColon(line, 0));
      } else {
        this.#line(text, at, end, colon);
      }
      at = end + 1;
      if (text.charCodeAt(end) === CR) {
        if (at === length) this.#afterCR = true;
        else if (text.charCodeAt(at) === LF) at++;
      }
      if (this.#data.length > this.#maxChars) return false;
    }
    if (at < length) {
      this.#partial.push(text.slice(at));
      this.#partialLength += length - at;
    }
    return this.#partialLength + this.#data.length <= this.#maxChars;
  }

  /**
   * One line, `text` from `start` to `end` (its line end excluded), whose first colon is at `colon` (at or
   * past `end`: it has none).
   */
  #line(text: string, start: number, end: number, colon: number): void {
    if (start === end) {
      this.#dispatch();
      return;
    }
    // A comment.
    if (colon === start) return;
    const named = colon < end;
    const field = text.slice(start, named ? colon : end);
    let value = '';
    if (named) {
      const from = text.charCodeAt(colon + 1) === SPACE ? colon + 2 : colon + 1;
      value = text.slice(Math.min(from, end), end);
    }
    if (field === 'data') {
      this.#data = this.#hasData ? `${this.#data}\n${value}` : value;
      this.#hasData = true;
    } else if (field === 'event') {
      this.#event = value;
    }
  }

  /** An empty line: the event read so far, if it has data, is complete. */
  #dispatch(): void {
    if (this.#hasData) this.events.push({ event: this.#event || 'message', data: this.#data });
    this.#event = '';
    this.#data = '';
    this.#hasData = false;
  }
}

/** The first colon of `text` from `at`, or its length when there is none. */
function firstColon(text: string, at: number): number {
  const colon = text.indexOf(':', at);
  return colon === -1 ? text.length : colon;
}

/** Where the line starting at `at` ends (its CR or LF), or -1 when it does not end in `text`. */
function lineEnd(text: string, at: number): number {
  const cr = text.indexOf('\r', at);
  const lf = text.indexOf('\n', at);
  if (cr === -1) return lf;
  if (lf === -1) return cr;
  return Math.min(cr, lf);
}
