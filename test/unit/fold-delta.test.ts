import { describe, expect, it } from 'vitest';
import { decode } from '../../src/stream/decode.js';
import { decodeDelta } from '../../src/stream/delta.js';
import { Fold } from '../../src/stream/fold.js';

const add = (text: string) => ({ text, replace: false });
const replace = (text: string) => ({ text, replace: true });

describe('6 the fold of message.delta', () => {
  it('in step, each delta is handed on as it came (the same object) and the text grows', () => {
    const fold = new Fold();
    const first = add('Hel');
    expect(fold.apply(first)).toBe(first);
    expect(fold.apply(add('lo'))).toEqual(add('lo'));
    expect(fold.shown).toBe('Hello');
    expect(fold.apply(replace('Bye'))).toEqual(replace('Bye'));
    expect(fold.shown).toBe('Bye');
  });

  it('after restart, a connection catching up shows nothing until it goes beyond what was shown', () => {
    const fold = new Fold();
    fold.apply(add('Hello wor'));
    fold.restart();
    expect(fold.apply(add('Hello'))).toBeUndefined();
    expect(fold.apply(add(' wor'))).toBeUndefined();
    expect(fold.shown).toBe('Hello wor');
    expect(fold.apply(add('ld'))).toEqual(add('ld'));
    expect(fold.shown).toBe('Hello world');
    // In step again: the next delta is handed on as it came.
    const next = add('!');
    expect(fold.apply(next)).toBe(next);
    expect(fold.shown).toBe('Hello world!');
  });

  it('after restart, a connection that reaches exactly what was shown is in step again', () => {
    const fold = new Fold();
    fold.apply(add('Hello'));
    fold.restart();
    expect(fold.apply(add('Hello'))).toBeUndefined();
    const next = add(' there');
    expect(fold.apply(next)).toBe(next);
    expect(fold.shown).toBe('Hello there');
  });

  it('after restart, a connection that says something else replaces the text, once', () => {
    const fold = new Fold();
    fold.apply(add('Hello'));
    fold.restart();
    expect(fold.apply(add('Howdy'))).toEqual(replace('Howdy'));
    expect(fold.shown).toBe('Howdy');
    const next = add('!');
    expect(fold.apply(next)).toBe(next);
  });

  it('after restart, a replace of the new connection is folded against what was shown', () => {
    const fold = new Fold();
    fold.apply(add('Hello world'));
    fold.restart();
    expect(fold.apply(add('xyz'))).toEqual(replace('xyz'));
    fold.restart();
    expect(fold.apply(replace('xyz and more'))).toEqual(add(' and more'));
    expect(fold.shown).toBe('xyz and more');
  });

  it('after restart, the source starts from nothing: its first delta is not appended to the old text', () => {
    const fold = new Fold();
    fold.apply(add('ab'));
    fold.restart();
    expect(fold.apply(add('a'))).toBeUndefined();
    expect(fold.apply(add('bc'))).toEqual(add('c'));
  });

  it('6 settle: the terminal content wins with one change, or none when the text already is it', () => {
    const same = new Fold();
    same.apply(add('Hi'));
    expect(same.settle('Hi')).toBeUndefined();
    const longer = new Fold();
    longer.apply(add('Hi'));
    expect(longer.settle('Hi there')).toEqual(add(' there'));
    expect(longer.shown).toBe('Hi there');
    const other = new Fold();
    other.apply(add('Hi'));
    expect(other.settle('Bye')).toEqual(replace('Bye'));
    expect(other.shown).toBe('Bye');
  });

  it('6 settle to a shorter content (a prefix of what was shown) replaces the text', () => {
    const fold = new Fold();
    fold.apply(add('Hello world'));
    fold.restart();
    expect(fold.settle('Hello')).toEqual(replace('Hello'));
    expect(fold.shown).toBe('Hello');
    const next = add('!');
    expect(fold.apply(next)).toBe(next);
  });

  it('settle after restart brings the fold back in step', () => {
    const fold = new Fold();
    fold.apply(add('Hi'));
    fold.restart();
    expect(fold.settle('Hi')).toBeUndefined();
    const next = add('!');
    expect(fold.apply(next)).toBe(next);
    expect(fold.shown).toBe('Hi!');
  });
});

describe('6 the fold of a long turn (deltas joined in blocks)', () => {
  const words = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `w${from + i} `);

  it('every delta of a long turn is in the shown text, in order, across many blocks', () => {
    const fold = new Fold();
    const texts = words(2000);
    let expected = '';
    for (const text of texts) {
      expected += text;
      const delta = add(text);
      expect(fold.apply(delta)).toBe(delta);
      expect(fold.shown).toBe(expected);
    }
  });

  it('a replace in the middle of a block starts the text again, and the blocks after it hold only the new text', () => {
    const fold = new Fold();
    for (const text of words(300)) fold.apply(add(text));
    fold.apply(replace('new:'));
    let expected = 'new:';
    for (const text of words(700, 300)) {
      fold.apply(add(text));
      expected += text;
    }
    expect(fold.shown).toBe(expected);
  });

  it('a re-opened stream that catches up in the middle of a block goes on from the whole shown text', () => {
    const fold = new Fold();
    const first = words(400);
    for (const text of first) fold.apply(add(text));
    fold.restart();
    for (const text of first) expect(fold.apply(add(text))).toBeUndefined();
    let expected = first.join('');
    for (const text of words(600, 400)) {
      expect(fold.apply(add(text))).toEqual(add(text));
      expected += text;
    }
    expect(fold.shown).toBe(expected);
    expect(fold.settle(expected)).toBeUndefined();
    expect(fold.settle(`${expected}end`)).toEqual(add('end'));
  });
});

describe('6 settle after a long turn (the terminal content compared block by block)', () => {
  const long = (n: number) => {
    const fold = new Fold();
    let text = '';
    for (let i = 0; i < n; i++) {
      fold.apply(add(`w${i} `));
      text += `w${i} `;
    }
    return { fold, text };
  };
  const flat = (text: string) => [...text].join('');
  const change = (text: string, at: number) => `${text.slice(0, at)}#${text.slice(at + 1)}`;

  it.each([256, 600, 700])(
    'the same text (another string) after %i deltas changes nothing and is kept',
    (n) => {
      const { fold, text } = long(n);
      const content = flat(text);
      expect(fold.settle(content)).toBeUndefined();
      expect(fold.shown).toBe(content);
    },
  );

  it('a longer content after many blocks is one suffix', () => {
    const { fold, text } = long(600);
    expect(fold.settle(`${text}end`)).toEqual(add('end'));
    expect(fold.shown).toBe(`${text}end`);
  });

  it.each([
    ['in the first block', 3],
    ['in a later block', 2000],
    ['in the deltas after the last block', -3],
  ])('a content that differs %s replaces the text', (_, at) => {
    const { fold, text } = long(600);
    const other = change(text, at < 0 ? text.length + at : at);
    expect(fold.settle(other)).toEqual(replace(other));
    expect(fold.shown).toBe(other);
    expect(fold.settle(`${other}!`)).toEqual(add('!'));
  });

  it('a shorter content (a prefix of the text) replaces it', () => {
    const { fold, text } = long(600);
    expect(fold.settle(text.slice(0, -1))).toEqual(replace(text.slice(0, -1)));
  });

  it('after a replace, only the text since the replace is compared', () => {
    const { fold } = long(300);
    fold.apply(replace('new '));
    let text = 'new ';
    for (let i = 0; i < 300; i++) {
      fold.apply(add(`v${i} `));
      text += `v${i} `;
    }
    expect(fold.settle(flat(text))).toBeUndefined();
    expect(fold.settle(`${text}+`)).toEqual(add('+'));
  });
});

describe('6 a replace while a re-opened stream catches up', () => {
  const caughtUpTo = (shown: string, ...replayed: string[]) => {
    const fold = new Fold();
    fold.apply(add(shown));
    fold.restart();
    for (const text of replayed) expect(fold.apply(add(text))).toBeUndefined();
    return fold;
  };

  it('a replace with a text the caller was already shown the start of changes nothing yet', () => {
    const fold = caughtUpTo('abcdef');
    expect(fold.apply(replace('abc'))).toBeUndefined();
    expect(fold.shown).toBe('abcdef');
    expect(fold.apply(add('def'))).toBeUndefined();
    expect(fold.apply(add('!'))).toEqual(add('!'));
    expect(fold.shown).toBe('abcdef!');
  });

  it('a replace after part of the replay starts the text anew from its own text, not the replayed part', () => {
    const fold = caughtUpTo('abcdef', 'abc');
    expect(fold.apply(replace('xyz'))).toEqual(replace('xyz'));
    expect(fold.shown).toBe('xyz');
    expect(fold.apply(add('!'))).toEqual(add('!'));
    expect(fold.shown).toBe('xyz!');
  });
});

describe('6 message.delta decoding', () => {
  const delta = (data: string) => decodeDelta({ event: 'message.delta', data });

  it.each([
    ['{"text":"abc","replace":false}', 'abc', false],
    ['{"text":"abc","replace":true}', 'abc', true],
    ['{"text": "abc", "replace": false}', 'abc', false],
    ['{"text": "abc", "replace": true}', 'abc', true],
    ['{"text":"","replace":false}', '', false],
    ['{"text": "", "replace": true}', '', true],
    ['{"text":"twelve chars","replace":false}', 'twelve chars', false],
    ['{"text":"thirteen char","replace":true}', 'thirteen char', true],
    ['{"text":"a\\"b","replace":false}', 'a"b', false],
    ['{"text":"a\\\\b","replace":true}', 'a\\b', true],
    ['{"text":"a\\nb","replace":false}', 'a\nb', false],
    ['{"replace":true,"text":"abc"}', 'abc', true],
    ['{ "text":"abc","replace":false}', 'abc', false],
    ['{"text":"abc","replace":false,"extra":1}', 'abc', false],
    ['{"text":"\\\\","replace":false}', '\\', false],
    ['{"text":"\\"","replace":true}', '"', true],
  ])('%s', (data, text, isReplace) => {
    const payload = delta(data);
    expect(payload?.text).toBe(text);
    expect(payload?.replace).toBe(isReplace);
  });

  it('a canonical text is the whole text between its quotes, for either spacing', () => {
    expect(delta('{"text":"x y","replace":false}')).toEqual({ text: 'x y', replace: false });
    expect(delta('{"text": "x y", "replace": false}')).toEqual({ text: 'x y', replace: false });
    expect(delta('{"text":" lead","replace":false}')).toEqual({ text: ' lead', replace: false });
  });

  it('data that is not JSON is left to the full decoder, which names the problem', () => {
    for (const data of ['{"text":', '{"text":"a","replace":false}junk', 'x{"text":"a","replace":false}']) {
      expect(delta(data)).toBeUndefined();
      expect(decode({ event: 'message.delta', data })).toMatchObject({
        name: 'off_schema',
        event: 'message.delta',
        problem: 'data is not JSON',
      });
    }
  });

  it.each([
    ['null', 'null'],
    ['an array', '[{"text":"a","replace":false}]'],
    ['a number text', '{"text":1,"replace":false}'],
    ['a string replace', '{"text":"a","replace":"false"}'],
    ['no replace', '{"text":"a"}'],
    ['no text', '{"replace":false}'],
    ['a string', '"text"'],
  ])('9 a payload off the contract (%s) degrades to an off-schema event, never a break', (_, data) => {
    expect(delta(data)).toBeUndefined();
    expect(decode({ event: 'message.delta', data })).toMatchObject({
      name: 'off_schema',
      data: JSON.parse(data),
    });
  });

  it.each(['toString', 'constructor', '__proto__', 'hasOwnProperty'])(
    '6 an event named like an object property (%s) is an unknown event, passed through',
    (event) => {
      expect(decode({ event, data: '{"a":1}' })).toEqual({ name: 'unknown', event, data: { a: 1 } });
    },
  );
});
