import { describe, expect, it } from 'vitest';
import {
  NO_REDACTION,
  REDACTED,
  redactJson,
  redactorOf,
  secretForms,
  withoutSecretStart,
} from '../../src/contract/redact.js';

const SHORT = 'ab"c\\';
const LONG = 'tok_live_0123456789abcdefghijklmnopqrstu+/';

describe('redactorOf: every form of a credential masked, whatever surrounds it', () => {
  for (const token of [SHORT, LONG]) {
    it(`5 a token of ${token.length} characters, raw, JSON-escaped and percent-encoded`, () => {
      const redact = redactorOf([token]);
      const text = `Bearer ${token}; ${JSON.stringify({ auth: token })} /x?t=${encodeURIComponent(token)}${token}`;
      const out = redact(text);
      expect(out).not.toContain(token);
      expect(out).not.toContain(JSON.stringify(token).slice(1, -1));
      expect(out).not.toContain(encodeURIComponent(token));
      expect(out.split(REDACTED).length - 1).toBe(4);
      // Inside a longer JSON string, the escaped form stands without its quotes.
      expect(redact(JSON.stringify({ note: `echo ${token} back` }))).toBe(`{"note":"echo ${REDACTED} back"}`);
    });
  }

  it('masks the longest of two tokens whole when one holds the other', () => {
    expect(redactorOf(['abcd', 'abcdefgh'])('x abcdefgh y abcd')).toBe(`x ${REDACTED} y ${REDACTED}`);
  });

  it('leaves text without a token, and tokens shorter than 4 characters, alone', () => {
    expect(redactorOf([undefined, 'abc'])).toBe(NO_REDACTION);
    expect(redactorOf(['secret'])('nothing here')).toBe('nothing here');
    expect(redactorOf(['secret'])('sec')).toBe('sec');
  });

  it('redactJson masks strings and keys at any depth, and bounds the depth', () => {
    const redact = redactorOf(['s3cr3t']);
    expect(redactJson({ s3cr3t: ['a s3cr3t', 1, null, { x: 's3cr3t' }] }, redact)).toEqual({
      [REDACTED]: [`a ${REDACTED}`, 1, null, { x: REDACTED }],
    });
    expect(redactJson({ a: { b: 'x' } }, redact, 1)).toEqual({ a: REDACTED });
    expect(redactJson([['s3cr3t']], redact, 1)).toEqual([REDACTED]);
    expect(NO_REDACTION('s3cr3t')).toBe('s3cr3t');
    const value = { a: 's3cr3t' };
    expect(redactJson(value, NO_REDACTION)).toBe(value);
  });

  it('secretForms lists each form once, longest first, without tokens under 4 characters', () => {
    expect(secretForms(['abc', 'a/b"c'])).toEqual(['a%2Fb%22c', 'a/b\\"c', 'a/b"c']);
  });

  it('withoutSecretStart drops the longest end that starts a credential, and nothing else', () => {
    const forms = secretForms([LONG]);
    expect(withoutSecretStart(`text ${LONG.slice(0, 12)}`, forms)).toBe('text ');
    expect(withoutSecretStart(`text ${encodeURIComponent(LONG).slice(0, 40)}`, forms)).toBe('text ');
    expect(withoutSecretStart(`text ${REDACTED}`, forms)).toBe(`text ${REDACTED}`);
    expect(withoutSecretStart('text', [])).toBe('text');
  });
});
