import { describe, expect, it } from 'vitest';
import { charCount } from '../../src/schemas.js';

describe('charCount', () => {
  it.each([
    ['', 0],
    ['abc', 3],
    ['😀', 1],
    ['e\u0301', 2],
    ['a😀b😀', 4],
    ['\ud800', 1],
  ])('counts %j as %i code points', (text, count) => {
    expect(charCount(text)).toBe(count);
  });
});
