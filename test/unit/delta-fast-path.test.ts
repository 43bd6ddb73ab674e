import { describe, expect, it, vi } from 'vitest';
import { DeltaPayloadSchema } from '../../src/contract/events.js';
import { decodeDelta } from '../../src/stream/delta.js';

/** Decodes one delta, noting whether it went through JSON.parse (the slow path) or not (the fast path). */
function watch(data: string) {
  const parse = vi.spyOn(JSON, 'parse');
  try {
    return { payload: decodeDelta({ event: 'message.delta', data }), parsed: parse.mock.calls.length > 0 };
  } finally {
    parse.mockRestore();
  }
}

/** What JSON.parse and the schema make of `data`: the payload every path must give, or undefined. */
function reference(data: string) {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    return undefined;
  }
  const result = DeltaPayloadSchema.safeParse(json);
  return result.success ? result.data : undefined;
}

/** `data` is a delta, read by the path named, as JSON.parse and the schema read it. */
function expectRead(data: string, path: 'fast' | 'JSON.parse') {
  const { payload, parsed } = watch(data);
  expect(parsed).toBe(path === 'JSON.parse');
  expect(payload).toBeDefined();
  expect(payload).toEqual(reference(data));
}

const twelve = 'twelve units';
const thirteen = 'thirteen unit';
const emoji = '\u{1F600}'; // two UTF-16 units

describe('6 message.delta: the fast path reads canonical deltas without JSON.parse, the same as JSON.parse', () => {
  it.each([
    ['JSON.stringify, replace false', '{"text":"abc","replace":false}'],
    ['JSON.stringify, replace true', '{"text":"abc","replace":true}'],
    ['json.dumps, replace false', '{"text": "abc", "replace": false}'],
    ['json.dumps, replace true', '{"text": "abc", "replace": true}'],
    ['an empty text', '{"text":"","replace":false}'],
    ['a one-unit text', '{"text":"a","replace":true}'],
    ['12 units', `{"text":"${twelve}","replace":false}`],
    ['12 units, json.dumps', `{"text": "${twelve}", "replace": true}`],
    ['12 units of six emoji', `{"text":"${emoji.repeat(6)}","replace":false}`],
    ['non-ASCII letters and spaces', '{"text":" héllo wörld","replace":false}'],
  ])('fast: %s', (_, data) => expectRead(data, 'fast'));

  it.each([
    ['13 units', `{"text":"${thirteen}","replace":false}`],
    ['13 units, json.dumps', `{"text": "${thirteen}", "replace": true}`],
    ['13 units with an emoji', `{"text":"${emoji}${'a'.repeat(11)}","replace":false}`],
    ['an escaped quote', '{"text":"a\\"b","replace":false}'],
    ['an escaped backslash', '{"text":"a\\\\b","replace":true}'],
    ['an escaped newline', '{"text":"a\\nb","replace":false}'],
    ['a unicode escape', '{"text":"\\u0041","replace":false}'],
    ['the other key order', '{"replace":false,"text":"abc"}'],
    ['an extra key after', '{"text":"abc","replace":false,"extra":1}'],
    ['an extra key before', '{"extra":1,"text":"abc","replace":true}'],
    ['a space inside the braces', '{ "text":"abc","replace":false}'],
    ['two spaces after a colon', '{"text":  "abc","replace":false}'],
    ['a space before a colon', '{"text" :"abc","replace":false}'],
    ['a newline between members', '{"text":"abc",\n"replace":false}'],
  ])('slow, the same payload as JSON.parse: %s', (_, data) => expectRead(data, 'JSON.parse'));

  it.each([
    ['a raw tab in the text', '{"text":"a\tb","replace":false}'],
    ['a raw newline in the text', '{"text":"a\nb","replace":true}'],
    ['a capitalised boolean', '{"text":"abc","replace":False}'],
    ['a null replace', '{"text":"abc","replace":null}'],
    ['a quoted boolean', '{"text":"abc","replace":"true"}'],
    ['a trailing comma', '{"text":"abc","replace":false,}'],
  ])('refused as JSON.parse and the schema refuse it: %s', (_, data) => {
    expect(reference(data)).toBeUndefined();
    expect(watch(data)).toEqual({ payload: undefined, parsed: true });
  });

  it('both paths give the same payload for the same text, on either side of the length bound', () => {
    for (const text of ['', 'a', twelve, thirteen, `${twelve} and more`]) {
      for (const replace of [false, true]) {
        const compact = watch(JSON.stringify({ text, replace }));
        const spaced = watch(`{"text": "${text}", "replace": ${replace}}`);
        expect(compact.payload).toEqual({ text, replace });
        expect(spaced.payload).toEqual({ text, replace });
        expect(compact.parsed).toBe(text.length > 12);
        expect(spaced.parsed).toBe(text.length > 12);
      }
    }
  });

  it('a text repeated across deltas reads the same every time, whether first seen or seen before', () => {
    const data = '{"text":"again","replace":false}';
    const first = watch(data);
    const second = watch(data);
    expect(first).toEqual({ payload: { text: 'again', replace: false }, parsed: false });
    expect(second).toEqual(first);
    // One payload per data, typed read-only: no object per delta that nobody reads.
    expect(second.payload).toBe(first.payload);
  });
});
