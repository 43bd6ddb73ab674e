import { describe, expect, it } from 'vitest';
import { DeltaMask, displayPath, TokenMask } from '../../src/mock/inspector/masking.js';

// What the mock's inspector masks (`src/mock/inspector/masking.ts`), driven directly: whole values, texts cut
// at a bound, bodies with JSON escapes, URLs.

const LONG = 'Kw7ZpQ2rVb9XyL4mNc8TgH3jFd6SaE1uYo5RiP0n';
/** A token of a letter, a digit, a punctuation mark and a symbol, each decoded from its own escape class. */
const MIXED = 'ab1-+cd';
const escaped = (token: string) =>
  [...token].map((c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`).join('');

describe('the inspector token mask', () => {
  it('margin is the longest form of a token in UTF-8 bytes; none without tokens', () => {
    // "ééééé": 10 bytes raw, 30 percent-encoded.
    expect(new TokenMask(['ééééé', 'abcd']).margin).toBe(30);
    expect(new TokenMask([]).margin).toBe(0);
  });

  it('a whole value is masked when it is a token, however short; inside a text only a long one is', () => {
    const mask = new TokenMask(['ab', 'abcd']);
    expect(mask.value('ab')).toBe('[redacted]');
    expect(mask.value('xab')).toBe('xab');
    expect(mask.value('x abcd')).toBe('x [redacted]');
    expect(mask.text('ab abcd')).toBe('ab [redacted]');
    expect(mask.json({ ab: 'abcd', n: 1 })).toEqual({ ab: '[redacted]', n: 1 });
  });

  it('cut keeps a text within its bound whole, and says when it was cut', () => {
    const mask = new TokenMask([LONG]);
    expect(mask.cut('short', 10)).toEqual({ text: 'short', chars: 5, truncated: false });
    expect(mask.cut('short', 10, false)).toEqual({ text: 'short', chars: 5, truncated: true });
    expect(mask.cut('y'.repeat(200), 10)).toEqual({ text: 'y'.repeat(10), chars: 200, truncated: true });
    expect(mask.cut('y'.repeat(11), 10)).toEqual({ text: 'y'.repeat(10), chars: 11, truncated: true });
    expect(mask.cut('y'.repeat(10), 10)).toEqual({ text: 'y'.repeat(10), chars: 10, truncated: false });
  });

  it('cut masks before it measures: a token past the bound that masking shortens into it is kept whole', () => {
    const mask = new TokenMask([LONG]);
    expect(mask.cut(`x${LONG}`, 20)).toEqual({ text: 'x[redacted]', chars: 41, truncated: false });
  });

  it('cut reads past its bound far enough to see a token that starts before it', () => {
    const mask = new TokenMask([LONG]);
    // The token starts 2 characters before the bound and ends 38 past it.
    expect(mask.cut(`${'x'.repeat(8)}${LONG}${'z'.repeat(100)}`, 10)).toEqual({
      text: `${'x'.repeat(8)}[r`,
      chars: 148,
      truncated: true,
    });
  });

  it('cut of a text that masking shortens within the bound still says it was cut, and keeps no token start', () => {
    const mask = new TokenMask([LONG]);
    // The window (60 + 40 characters) masks to 40, within the bound, but the text goes on.
    expect(mask.cut(`${LONG}${LONG}${LONG}zzzzzzzzzz`, 60)).toEqual({
      text: '[redacted][redacted]',
      chars: 130,
      truncated: true,
    });
  });

  it('cut masks only a window of max plus margin characters: a token starting past it is never read', () => {
    const mask = new TokenMask([LONG]);
    expect(mask.cut(`${'x'.repeat(5)}${LONG}${'z'.repeat(100)}`, 50).text).toBe(
      `${'x'.repeat(5)}[redacted]${'z'.repeat(35)}`,
    );
    // After one token masked shorter, the next one ends past the window: its part in the cut goes.
    expect(mask.cut(`${LONG}${LONG}${'z'.repeat(50)}`, 15).text).toBe('[redacted]');
  });

  it('cut never ends in the start of a token it could not see whole', () => {
    const mask = new TokenMask([LONG]);
    expect(mask.cut(`${'x'.repeat(5)}${LONG.slice(0, 20)}`, 10, false).text).toBe('x'.repeat(5));
  });

  it('body: a text without escapes is masked as it is', () => {
    expect(new TokenMask([LONG]).body(`{"a": "${LONG}"}`, true)).toBe('{"a": "[redacted]"}');
  });

  it('body: whole JSON whose escapes hide a token is re-serialized masked; without a token it stays as sent', () => {
    const mask = new TokenMask([MIXED]);
    expect(mask.body(`{"a": "x ${escaped(MIXED)}"}`, true)).toBe('{"a":"x [redacted]"}');
    expect(mask.body('{"a": "\\/x"}', true)).toBe('{"a": "\\/x"}');
    // A part of a body is not parsed even when it reads as JSON: its spacing stays.
    expect(mask.body(`{"a": "x ${escaped(MIXED)}"}`, false)).toBe('{"a": "x [redacted]"}');
  });

  it('body: a part of a body has its printable escapes decoded only where that shows a token', () => {
    const mask = new TokenMask([MIXED]);
    const rest = '\\u0022 \\u005C \\u000A \\\\ \\/ \\u0041 \\u004a';
    expect(mask.body(`{"a":"${escaped(MIXED)} ${rest}`, false)).toBe(
      '{"a":"[redacted] \\u0022 \\u005C \\u000A \\\\ / A J',
    );
    expect(mask.body(`{"a":"${rest}`, false)).toBe(`{"a":"${rest}`);
    // Whole but not JSON: the same decoding.
    expect(mask.body(`{"a":"${escaped(MIXED)}`, true)).toBe('{"a":"[redacted]');
  });

  it('url: tokens in path segments and query names and values are masked, escaped; the rest stays as sent', () => {
    const mask = new TokenMask(['ab', LONG]);
    const url = mask.url(new URL(`http://u:p@h/x/%7e/%zz/ab/a%62/y${LONG}?q=a%20b&flag&${LONG}=1`));
    expect(url.href).toBe(
      'http://h/x/%7e/%zz/%5Bredacted%5D/%5Bredacted%5D/y%5Bredacted%5D?q=a+b&flag=&%5Bredacted%5D=1',
    );
    expect(mask.url(new URL('http://h/p?q=a%20b&flag')).href).toBe('http://h/p?q=a%20b&flag');
    expect(displayPath(url)).toBe('/x/%7e/%zz/[redacted]/[redacted]/y[redacted]?q=a+b&flag=&[redacted]=1');
  });
});

describe('the inspector delta mask: a token the model writes across deltas', () => {
  const TOKEN = 'tok+SECRET/abc=xyz';
  /** A DeltaMask over TOKEN and the deltas' texts as kept, rewritten in place. */
  const deltaMask = () => {
    const deltas = new DeltaMask(new TokenMask([TOKEN]));
    const kept: string[] = [];
    const add = (text: string) => {
      const index = kept.push(text) - 1;
      deltas.add(text, (rewritten) => {
        kept[index] = rewritten;
      });
    };
    return { deltas, kept, add };
  };

  it('spans lists where a text holds a token, in any form; none without tokens', () => {
    const mask = new TokenMask([TOKEN]);
    expect(mask.spans(`a ${TOKEN} b tok%2bSECRET%2Fabc%3Dxyz`)).toEqual([
      [2, 20],
      [23, 47],
    ]);
    expect(new TokenMask([]).spans(TOKEN)).toEqual([]);
  });

  it('a token across deltas: [redacted] where it starts, the rest of it dropped, what surrounds it kept', () => {
    const { kept, add } = deltaMask();
    for (const text of ['Your key is to', 'k+SEC', 'RET/abc=', 'xyz, keep it.']) add(text);
    expect(kept).toEqual(['Your key is [redacted]', '', '', ', keep it.']);
  });

  it('a token within one delta is left to that delta’s own mask, at its start, its end or inside', () => {
    const { kept, add } = deltaMask();
    add('abc');
    add(`${TOKEN} x`);
    add(`y ${TOKEN}`);
    add('z');
    add(`w ${TOKEN} v`);
    expect(kept).toEqual(['abc', `${TOKEN} x`, `y ${TOKEN}`, 'z', `w ${TOKEN} v`]);
  });

  it('a token from the very start of a delta, or right after one that ends before it', () => {
    const { kept, add } = deltaMask();
    add('Your key is ');
    add('tok+SEC');
    add('RET/abc=xyz');
    add('!');
    expect(kept).toEqual(['Your key is ', '[redacted]', '', '!']);
  });

  it('a replace starts the text over: no token spans it', () => {
    const { deltas, kept, add } = deltaMask();
    add('tok+SEC');
    deltas.restart();
    add('RET/abc=xyz');
    expect(kept).toEqual(['tok+SEC', 'RET/abc=xyz']);
    add('and to');
    add('k+SECRET/abc=xyz.');
    expect(kept.slice(2)).toEqual(['and [redacted]', '.']);
  });

  it('a token in one character per delta', () => {
    const { kept, add } = deltaMask();
    add('>');
    for (const char of TOKEN) add(char);
    add('<');
    expect(kept.join('')).toBe('>[redacted]<');
    expect(kept.slice(1, -1)).toEqual(['[redacted]', ...Array.from({ length: TOKEN.length - 1 }, () => '')]);
  });

  it('two tokens, each across deltas, with text between them', () => {
    const { kept, add } = deltaMask();
    add('a tok+SECRET/');
    add(`abc=xyz b ${TOKEN.slice(0, 5)}`);
    add(`${TOKEN.slice(5)} c`);
    expect(kept).toEqual(['a [redacted]', ' b [redacted]', ' c']);
  });

  it('a token written long after other deltas: the earlier ones are not rewritten', () => {
    const { kept, add } = deltaMask();
    add('to');
    add('x'.repeat(200));
    add('k+SECRET/abc=xyz');
    expect(kept).toEqual(['to', 'x'.repeat(200), 'k+SECRET/abc=xyz']);
    add('z');
    add('tok+SECRET/abc=');
    add('xyz');
    expect(kept.slice(-2)).toEqual(['[redacted]', '']);
  });
});
