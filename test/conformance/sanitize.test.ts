import { describe, expect, it } from 'vitest';
import {
  MAX_PRINTED,
  sanitizeJson,
  sanitizerOf,
  serverTextOf,
  stripControls,
} from '../../src/conformance/sanitize.js';
import { NO_REDACTION } from '../../src/contract/redact.js';

// What the service's text becomes as the wire reads it, and what the printed report becomes: unit cases.
describe('the conformance sanitizers', () => {
  it('strips escape sequences, C0 and C1 controls, DEL and bidirectional overrides, newlines included', () => {
    expect(
      stripControls('a\x1b[31mb\x1b[0m\x1b]0;t\x07c\x1b]0;u\x1b\\d\x1bXe\r\n\t\x7f\x85\u202e\u2066f'),
    ).toBe('abcdef');
    expect(stripControls('plain text')).toBe('plain text');
    // Cut short at the end of a text: an escape sequence without its final byte or terminator goes whole.
    expect(stripControls('a\x1b[31')).toBe('a');
    expect(stripControls('a\x1b]0;title')).toBe('a');
  });

  it('on the wire: a text without a credential comes through exactly, controls and all', () => {
    const quoted = serverTextOf(['secret-1']);
    expect(quoted('a\x1b[1mb\nc')).toBe('a\x1b[1mb\nc');
    expect(quoted('')).toBe('');
  });

  it('on the wire: a credential is masked wherever it stands, in every form, even split by a control', () => {
    const quoted = serverTextOf(['se/cr+et', undefined]);
    expect(quoted('xse/cr+ety')).toBe('x[redacted]y');
    expect(quoted(`u=${encodeURIComponent('se/cr+et')}`)).toBe('u=[redacted]');
    expect(quoted('a\x1b[1mse/cr\x1b[0m+et b')).toBe('a[redacted] b');
  });

  it('on the wire: no credential (or one too short to search for) leaves every text as it is', () => {
    expect(serverTextOf([])('a\x1bb')).toBe('a\x1bb');
    // The identity itself, which lets the wire skip walking every body.
    expect(serverTextOf([])).toBe(NO_REDACTION);
    expect(serverTextOf(['abc'])('abc')).toBe('abc');
  });

  it('in the report: a credential standing as a word is masked; one inside a longer word is not', () => {
    const sanitize = sanitizerOf(['other']);
    expect(sanitize('another credential, bothered; other_x x_other')).toBe(
      'another credential, bothered; other_x x_other',
    );
    expect(sanitize('other')).toBe('[redacted]');
    expect(sanitize('(other) "other" other.other')).toBe('([redacted]) "[redacted]" [redacted].[redacted]');
    expect(sanitize('other1 9other')).toBe('other1 9other');
  });

  it('in the report: controls are stripped first, then the text is bounded, saying how much was cut', () => {
    const sanitize = sanitizerOf(['tok.en+1']);
    expect(sanitize('a \x1b[1mtok.en+1\x1b[0m b')).toBe('a [redacted] b');
    expect(sanitize('tokXen+1')).toBe('tokXen+1');
    expect(sanitize('x'.repeat(MAX_PRINTED))).toBe('x'.repeat(MAX_PRINTED));
    expect(sanitize('x'.repeat(MAX_PRINTED + 5))).toBe(`${'x'.repeat(MAX_PRINTED)}... (5 more characters)`);
    expect(sanitizerOf([])('a\x1b[1mb')).toBe('ab');
    expect(sanitizerOf([])('a  b  ')).toBe('a  b  ');
  });

  it('sanitizes every string of a value, keys included', () => {
    const sanitize = sanitizerOf(['other']);
    expect(sanitizeJson({ other: ['other', 1, { k: 'a\x07' }] }, sanitize)).toEqual({
      '[redacted]': ['[redacted]', 1, { k: 'a' }],
    });
  });
});
