/** A change of the caller's text: a suffix to append, or (`replace`) the full text. */
export interface TextChange {
  text: string;
  replace: boolean;
}

/**
 * Folds `message.delta` into the text the caller has been shown, and keeps that text right across a
 * re-opened stream: after `restart()` the new connection's deltas are folded on their own and only what
 * goes beyond what was shown reaches the caller, so nothing is shown twice and nothing is skipped.
 */
export class Fold {
  /** The text the caller has been shown. */
  shown = '';
  /** The current connection's own fold; the same string as `shown` while in step. */
  #source = '';
  #inStep = true;

  /**
   * Folds one delta of the current connection; returns what changes for the caller, if anything (while in
   * step, the delta itself: no copy per delta).
   */
  apply(delta: TextChange): TextChange | undefined {
    const { text, replace } = delta;
    if (this.#inStep) {
      this.shown = replace ? text : this.shown + text;
      this.#source = this.shown;
      return delta;
    }
    if (replace) {
      this.#source = text;
      return this.#reconcile(text, false);
    }
    // Catching up, `#source` is a prefix of `shown`: only the new part is compared, at its place, so a
    // replay of many small deltas costs their length, not the shown text's length for each.
    const at = this.#source.length;
    this.#source += text;
    if (!this.shown.startsWith(text, at)) return this.#reconcile(this.#source, false);
    if (this.#source.length === this.shown.length) this.#catchUp(this.shown);
    return undefined;
  }

  /** A new connection begins: its deltas start again from the beginning of the answer. */
  restart(): void {
    this.#source = '';
    this.#inStep = false;
  }

  /**
   * The terminal event's `content` is authoritative: returns the one change that makes the shown text equal
   * to it (a suffix when the shown text is its prefix, else a replace), or nothing when it already is.
   */
  settle(content: string): TextChange | undefined {
    return this.#reconcile(content, true);
  }

  #reconcile(target: string, final: boolean): TextChange | undefined {
    const shown = this.shown;
    if (target === shown) {
      // Equal text, two strings: keep the one the caller gets (the terminal's), not both.
      this.#catchUp(target);
      return undefined;
    }
    // The new connection has not caught up with what was shown yet.
    if (!final && shown.startsWith(target)) return undefined;
    this.#catchUp(target);
    return target.startsWith(shown)
      ? { text: target.slice(shown.length), replace: false }
      : { text: target, replace: true };
  }

  /** The connection's text and the shown text are `text` again: deltas pass straight through. */
  #catchUp(text: string): void {
    this.shown = text;
    this.#source = text;
    this.#inStep = true;
  }
}
