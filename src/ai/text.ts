import type { DeltaEvent } from '../index.js';
import type { ConvoChunk } from './parts.js';

/**
 * Writes a turn's text into a UI message as text parts, in time proportional to the wire: a delta costs its
 * own text, a `replace` (or the terminal content) its new text. The whole text the stream has folded
 * (`snapshot`) is read once, at the first delta, to line the stream up with what the message already
 * shows; from then on both change by the same deltas, so each is applied as it comes and never compared
 * with the whole text again (comparing every snapshot with the shown text made a long turn quadratic).
 */
export class TextWriter {
  /** The text the message shows: the UI text parts after the last `data-convo-replace`, joined. */
  #shown: string;
  /** Whether the stream's folded text equals `#shown`, so that a delta applies to both alike. */
  #inStep = false;
  /** The open text part, if any. */
  #textId: string | undefined;
  readonly #ids: () => string;

  /** A writer after `shown` (what the message shows already), naming new text parts with `ids`. */
  constructor(shown: string, ids: () => string) {
    this.#shown = shown;
    this.#ids = ids;
  }

  /**
   * A `delta` event as chunks: its text appended, or its `replace` written as the difference it makes.
   * Arrays, not generators: this runs for nearly every event, and nested generators cost more than the rest.
   */
  delta(event: DeltaEvent): ConvoChunk[] {
    if (this.#inStep) return event.replace ? this.settle(event.text) : this.#append(event.text, []);
    this.#inStep = true;
    return this.settle(event.snapshot);
  }

  /**
   * Makes the message show exactly `text` (a `replace`, the terminal content): the suffix it adds when it
   * extends what is shown, else a `data-convo-replace` part then a new text part with the whole of it.
   * Each comparison first checks the lengths, so it never reads more of the shown text than `text` has.
   */
  settle(text: string): ConvoChunk[] {
    const shown = this.#shown;
    if (text.length === shown.length && text === shown) return [];
    if (text.length > shown.length && text.startsWith(shown))
      return this.#append(text.slice(shown.length), []);
    const out = this.close();
    out.push({ type: 'data-convo-replace', data: { discardedChars: shown.length } });
    this.#shown = text;
    return this.#write(text, out);
  }

  /** Ends the open text part, if any. */
  close(): ConvoChunk[] {
    const id = this.#textId;
    this.#textId = undefined;
    return id === undefined ? [] : [{ type: 'text-end', id }];
  }

  /** Appends `text` (nothing for an empty one) to `out`. */
  #append(text: string, out: ConvoChunk[]): ConvoChunk[] {
    if (text === '') return out;
    this.#shown += text;
    return this.#write(text, out);
  }

  /** Writes `delta` into the open text part, opening one first if none is; returns `out`. */
  #write(delta: string, out: ConvoChunk[]): ConvoChunk[] {
    if (this.#textId === undefined) {
      this.#textId = this.#ids();
      out.push({ type: 'text-start', id: this.#textId });
    }
    out.push({ type: 'text-delta', id: this.#textId, delta });
    return out;
  }
}
