import { EVENT_NAMES } from '../contract/events.js';
import type { RawEvent } from './sse.js';

const LF = 10;
const CR = 13;
const SPACE = 32;
const COLON = 58;
const D = 100;
const E = 101;

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
    while (at < length) {
      const end = lf ? text.indexOf('\n', at) : lineEnd(text, at);
      if (end === -1) break;
      if (this.#partial.length > 0) {
        this.#partial.push(text.slice(at, end));
        const line = this.#partial.join('');
        this.#partial = [];
        this.#partialLength = 0;
        this.#line(line, 0, line.length);
      } else {
        this.#line(text, at, end);
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

  /** One line, `text` from `start` to `end` (its line end excluded). */
  #line(text: string, start: number, end: number): void {
    if (start === end) {
      this.#dispatch();
      return;
    }
    // The two fields read, known by their first letters: no copy of the line or of the name.
    const first = text.charCodeAt(start);
    if (first === D && isPrefix(text, start, 'data:')) this.#addData(valueFrom(text, start + 5, end));
    else if (first === E && isPrefix(text, start, 'event:')) this.#event = this.#name(text, start + 6, end);
    else if (first === COLON)
      return; // a comment
    else if (end - start === 4 && text.startsWith('data', start)) this.#addData('');
    else if (end - start === 5 && text.startsWith('event', start)) this.#event = '';
  }

  /**
   * An event's name: the contract's own string for a name it has (no copy an event, and none that keeps the
   * chunk it was cut from alive), a copy of the text for another.
   */
  #name(text: string, from: number, end: number): string {
    const start = from < end && text.charCodeAt(from) === SPACE ? from + 1 : from;
    for (const name of EVENT_NAMES)
      if (end - start === name.length && text.startsWith(name, start)) return name;
    return text.slice(start, end);
  }

  #addData(value: string): void {
    this.#data = this.#hasData ? `${this.#data}\n${value}` : value;
    this.#hasData = true;
  }

  /** An empty line: the event read so far, if it has data, is complete. */
  #dispatch(): void {
    if (this.#hasData) this.events.push({ event: this.#event || 'message', data: this.#data });
    this.#event = '';
    this.#data = '';
    this.#hasData = false;
  }
}

/** Whether `text` has `prefix` at `at` (compared by code unit: `startsWith` with a position is slower). */
function isPrefix(text: string, at: number, prefix: string): boolean {
  for (let i = 1; i < prefix.length; i++) if (text.charCodeAt(at + i) !== prefix.charCodeAt(i)) return false;
  return true;
}

/** A field's value: `text` from `from` (after the colon, one space dropped) to `end`. */
function valueFrom(text: string, from: number, end: number): string {
  const start = from < end && text.charCodeAt(from) === SPACE ? from + 1 : from;
  return text.slice(start, end);
}

/** Where the line starting at `at` ends (its CR or LF), or -1 when it does not end in `text`. */
function lineEnd(text: string, at: number): number {
  const cr = text.indexOf('\r', at);
  const lf = text.indexOf('\n', at);
  if (cr === -1) return lf;
  if (lf === -1) return cr;
  return Math.min(cr, lf);
}
