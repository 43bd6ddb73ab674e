import { describe, expect, it } from 'vitest';
import {
  NO_REDACTION,
  REDACTED,
  redactJson,
  redactorOf,
  secretForms,
  withoutSecretStart,
} from '../../src/contract/redact.js';
import { apiFailure } from '../../src/http/failures.js';

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

  it('5 percent-encoded in lower-case hex, mixed case, or in part, as a URL may carry it', () => {
    const token = 'tok+SECRET/x=';
    const redact = redactorOf([token]);
    for (const form of [
      'tok%2BSECRET%2Fx%3D',
      'tok%2bSECRET%2fx%3d',
      'tok%2bSECRET%2Fx%3d',
      'tok+SECRET%2fx=',
      '%74ok%2BSECRET/x%3D',
      '%74%6F%6b+SECRET/x=',
    ])
      expect(redact(`a ${form} b`), form).toBe(`a ${REDACTED} b`);
    // A multi-byte character: each byte of its UTF-8 escaped, in either case.
    const accented = redactorOf(['pässwort']);
    expect(accented('x p%C3%A4sswort y p%c3%a4sswort z')).toBe(`x ${REDACTED} y ${REDACTED} z`);
    // A byte under 0x10 keeps its leading zero: %09 is a tab.
    expect(redactorOf(['tab\tsecret'])('x tab%09secret')).toBe(`x ${REDACTED}`);
    // An escape of another character is not the token's.
    expect(redact('tok%2CSECRET%2Fx%3D')).toBe('tok%2CSECRET%2Fx%3D');
  });

  it('5 an error built from an answer that echoes the token in lower-case hex shows none of it', () => {
    const token = 'tok+SECRET/x=';
    const body = {
      message_code: 'api_v1_not_found',
      message: 'no chat for tok%2bSECRET%2fx%3d',
      data: { url: '/x?t=tok%2bSECRET%2fx%3d', mixed: 'tok%2BSECRET%2fx%3D' },
    };
    const error = apiFailure(404, body, new Headers(), undefined, redactorOf([token]));
    expect(JSON.stringify({ message: error.message, data: (error as { data?: unknown }).data })).not.toMatch(
      /SECRET/,
    );
  });

  it('5 a + in a query string, which decodes to a space, is masked either way', () => {
    const redact = redactorOf(['tok+SECRET']);
    expect(redact('q=tok+SECRET&r=tok SECRET')).toBe(`q=${REDACTED}&r=${REDACTED}`);
    expect(new URLSearchParams('q=tok+SECRET').get('q')).toBe('tok SECRET');
    // Only a + of the token: another character is not a space.
    expect(redactorOf(['tok-SECRET'])('tok SECRET')).toBe('tok SECRET');
  });

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
    expect(secretForms(['abc', 'a/b"c'])).toEqual(['a%2Fb%22c', 'a%2fb%22c', 'a/b\\"c', 'a/b"c']);
    // Only the escapes go lower case: the token's own letters stay as they are.
    expect(secretForms(['AB+C'])).toEqual(['AB%2BC', 'AB%2bC', 'AB+C']);
  });

  it('withoutSecretStart drops the longest end that starts a credential, and nothing else', () => {
    const forms = secretForms([LONG]);
    expect(withoutSecretStart(`text ${LONG.slice(0, 12)}`, forms)).toBe('text ');
    expect(withoutSecretStart(`text ${encodeURIComponent(LONG).slice(0, 40)}`, forms)).toBe('text ');
    expect(withoutSecretStart(`text ${REDACTED}`, forms)).toBe(`text ${REDACTED}`);
    expect(withoutSecretStart('text', [])).toBe('text');
  });
});
