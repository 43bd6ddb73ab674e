/**
 * Deltas per flat block of the shown text: the rope nodes of a block live only until it is joined, short
 * enough to die young in a busy stream; the join copies 256 short texts at a time.
 */
const BLOCK = 256;

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
  /**
   * The text the caller has been shown: `#base` with the deltas since appended, one string per delta that
   * V8 does not copy (a rope, flattened only when read), so every delta event's `snapshot` is the whole text
   * for the price of one small object that dies young.
   */
  shown = '';
  /** The current connection's own fold (read only after `restart()`: in step it is `shown`). */
  #source = '';
  #inStep = true;
  /**
   * `shown` up to the last block: a rope of flat blocks. Kept apart so that what stays alive for a long
   * turn is the text's characters and one rope node per block, not one rope node per delta (which the
   * garbage collector copies into the old generation, and which made the peak memory of a long stream).
   */
  #base = '';
  /** The blocks of `#base`, in order: the terminal content is compared with them without flattening `shown`. */
  #blocks: string[] = [];
  /** The texts appended since `#base`, joined into one flat block once `BLOCK` of them came. */
  // Stryker disable next-line ArrayDeclaration,StringLiteral: every slot is written before a join reads it.
  readonly #pieces: string[] = new Array<string>(BLOCK).fill('');
  #count = 0;

  /**
   * Folds one delta of the current connection; returns what changes for the caller, if anything (while in
   * step, the delta itself: no copy per delta).
   */
  apply(delta: TextChange): TextChange | undefined {
    const { text, replace } = delta;
    if (this.#inStep) {
      if (replace) this.#catchUp(text);
      else this.#append(text);
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
    const extended = this.#shownStarts(target);
    if (extended && target.length === shown.length) {
      // Equal text, two strings: keep the one the caller gets (the terminal's), not both.
      this.#catchUp(target);
      return undefined;
    }
    // The new connection has not caught up with what was shown yet.
    if (!final && shown.startsWith(target)) return undefined;
    this.#catchUp(target);
    return extended ? { text: target.slice(shown.length), replace: false } : { text: target, replace: true };
  }

  /**
   * Whether `target` starts with the shown text, compared block by block and delta by delta: comparing
   * with the rope itself would first copy the whole text into one string (a megabyte for a long answer).
   */
  #shownStarts(target: string): boolean {
    let at = 0;
    for (const block of this.#blocks) {
      if (!target.startsWith(block, at)) return false;
      at += block.length;
    }
    for (let i = 0; i < this.#count; i++) {
      const piece = this.#pieces[i]!;
      if (!target.startsWith(piece, at)) return false;
      at += piece.length;
    }
    return true;
  }

  /** Appends one delta in step: one rope node per delta, one flat block per `BLOCK` deltas. */
  #append(text: string): void {
    this.#pieces[this.#count++] = text;
    // Stryker disable next-line EqualityOperator,ConditionalExpression,BlockStatement: no block, a block per delta, or one of another size, folds the same text; only memory sees it.
    if (this.#count < BLOCK) {
      this.shown += text;
      return;
    }
    const block = this.#pieces.join('');
    this.#blocks.push(block);
    this.#base += block;
    this.#count = 0;
    this.shown = this.#base;
  }

  /** The connection's text and the shown text are `text` again: deltas pass straight through. */
  #catchUp(text: string): void {
    this.shown = text;
    this.#base = text;
    this.#blocks = [text];
    this.#count = 0;
    this.#source = text;
    this.#inStep = true;
  }
}
