import { describe, expect, it } from 'vitest';
import { TextWriter } from '../../src/ai/text.js';
import type { DeltaEvent } from '../../src/index.js';

// The AI mapping's text fold (`src/ai/text.ts`), driven directly: which chunks each delta, replace and final
// content becomes, after whatever the message already shows.

/** A writer after `shown` whose text parts are named t1, t2, ... */
function writer(shown = '') {
  let n = 0;
  return new TextWriter(shown, () => `t${++n}`);
}

const delta = (text: string, snapshot: string, replace = false): DeltaEvent => ({
  type: 'delta',
  text,
  replace,
  snapshot,
});

describe('the text fold of the AI mapping', () => {
  it('lines the first delta up with the whole folded text, not the delta alone', () => {
    // A resumed stream: it has folded "abc", the message shows nothing yet.
    expect(writer().delta(delta('c', 'abc'))).toEqual([
      { type: 'text-start', id: 't1' },
      { type: 'text-delta', id: 't1', delta: 'abc' },
    ]);
  });

  it('appends only the suffix when the first snapshot extends what the message shows', () => {
    expect(writer('ab').delta(delta('c', 'abc'))).toEqual([
      { type: 'text-start', id: 't1' },
      { type: 'text-delta', id: 't1', delta: 'c' },
    ]);
  });

  it('once in step, applies each delta as it comes, without reading its snapshot, in one text part', () => {
    const text = writer();
    text.delta(delta('a', 'a'));
    expect(text.delta(delta('b', 'unrelated'))).toEqual([{ type: 'text-delta', id: 't1', delta: 'b' }]);
    expect(text.delta(delta('c', ''))).toEqual([{ type: 'text-delta', id: 't1', delta: 'c' }]);
    // The appended text is what is shown: settling on it changes nothing.
    expect(text.settle('abc')).toEqual([]);
  });

  it('an empty delta in step writes nothing', () => {
    const text = writer();
    text.delta(delta('a', 'a'));
    expect(text.delta(delta('', 'a'))).toEqual([]);
    expect(text.settle('a')).toEqual([]);
  });

  it('a replace in step discards what is shown and writes its text in a new part', () => {
    const text = writer();
    text.delta(delta('abc', 'abc'));
    expect(text.delta(delta('xy', 'xy', true))).toEqual([
      { type: 'text-end', id: 't1' },
      { type: 'data-convo-replace', data: { discardedChars: 3 } },
      { type: 'text-start', id: 't2' },
      { type: 'text-delta', id: 't2', delta: 'xy' },
    ]);
    expect(text.settle('xy')).toEqual([]);
  });

  it('a replace that extends what is shown appends the difference', () => {
    const text = writer();
    text.delta(delta('ab', 'ab'));
    expect(text.delta(delta('abcd', 'abcd', true))).toEqual([{ type: 'text-delta', id: 't1', delta: 'cd' }]);
  });

  it('settling on the text shown writes nothing; on another of the same length, replaces it', () => {
    const text = writer('abc');
    expect(text.settle('abc')).toEqual([]);
    expect(text.settle('abd')).toEqual([
      { type: 'data-convo-replace', data: { discardedChars: 3 } },
      { type: 'text-start', id: 't1' },
      { type: 'text-delta', id: 't1', delta: 'abd' },
    ]);
  });

  it('settling on a shorter text, or one that only ends with what is shown, replaces it', () => {
    expect(writer('abc').settle('ab')).toEqual([
      { type: 'data-convo-replace', data: { discardedChars: 3 } },
      { type: 'text-start', id: 't1' },
      { type: 'text-delta', id: 't1', delta: 'ab' },
    ]);
    expect(writer('abc').settle('xabc')).toEqual([
      { type: 'data-convo-replace', data: { discardedChars: 3 } },
      { type: 'text-start', id: 't1' },
      { type: 'text-delta', id: 't1', delta: 'xabc' },
    ]);
  });

  it('close ends the open part once; a later append opens a new one', () => {
    const text = writer();
    text.delta(delta('a', 'a'));
    expect(text.close()).toEqual([{ type: 'text-end', id: 't1' }]);
    expect(text.close()).toEqual([]);
    expect(text.delta(delta('b', 'ab'))).toEqual([
      { type: 'text-start', id: 't2' },
      { type: 'text-delta', id: 't2', delta: 'b' },
    ]);
  });
});
