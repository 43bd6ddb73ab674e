import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/index.js';
import { charCount, LIMITS } from '../../src/schemas.js';
import { FUZZ_RUNS, itFuzzes } from '../support/fuzz.js';
import { MOCK_TARGETS, useTarget } from '../support/mock-targets.js';

/**
 * Characters are Unicode code points on both sides (src/contract/text.ts `charCount`, used by the client's
 * schemas and by the mock's handlers): an astral character is one, a combining mark is one of its own, a
 * lone surrogate is one. Text travels and comes back exactly as sent.
 */

/** Any code point, a lone surrogate now and then, and whole graphemes. */
const anyText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme-composite', maxLength: 20 }),
  fc
    .array(
      fc.oneof(fc.string({ unit: 'binary', maxLength: 3 }), fc.constantFrom('\ud800', '\udfff', '\udbff')),
      {
        maxLength: 10,
      },
    )
    .map((parts) => parts.join('')),
);

const EDGE_TEXTS: Array<[string, string]> = [
  ['a ZWJ family emoji (5 code points, 1 grapheme)', '👩‍👩‍👧'],
  ['a flag (2 regional indicators)', '🇫🇷'],
  ['stacked combining marks', 'Z\u0351\u0364\u036b\u0306\u0330'],
  ['right-to-left override', '\u202Eevil.txt'],
  ['a NUL, a BOM and line separators', 'a\u0000b\uFEFFc\u2028d\u2029'],
  ['lone surrogates', '\ud800x\udc00'],
  ['NFC and NFD forms (not normalized)', 'é / e\u0301'],
  ['SSE and JSON syntax', 'data: {"x":1}\n\nevent: message.completed\r\n'],
];

describe('unicode: code points on both sides', () => {
  itFuzzes(
    '8 charCount counts code points: the same as iterating the string',
    'charCount',
    1,
    fc.property(anyText, (text) => {
      expect(charCount(text)).toBe([...text].length);
      expect(charCount(text)).toBeLessThanOrEqual(text.length);
    }),
  );

  for (const { name, start } of MOCK_TARGETS) {
    describe(`via ${name}`, () => {
      const target = useTarget(start);

      itFuzzes(
        '4.2, 8 the client and the mock agree on the 200-character chat name, whatever the text',
        `chat name bound via ${name}`,
        4,
        fc.asyncProperty(anyText, fc.integer({ min: -2, max: 2 }), async (seed, offset) => {
          // Exactly 200 + offset code points made of `seed`, repeated (a lone high surrogate followed
          // by a lone low one joins it into one character, so count as it grows).
          const points = [...seed];
          const want = LIMITS.chatName + offset;
          let text = '';
          for (let i = 0; charCount(text) < want; i++) text += points[i % Math.max(points.length, 1)] ?? 'a';
          expect(charCount(text)).toBe(want);
          const fits = want <= LIMITS.chatName;
          const client = target.client();
          const made = await client.chats.create({ name: text }).catch((e: unknown) => e);
          const raw = await target.raw('POST', '/api/v1/chats', { body: { name: text } });
          if (fits) {
            expect((made as { name: string }).name).toBe(text);
            expect([raw.status, raw.body.data.name]).toEqual([201, text]);
          } else {
            expect(made).toBeInstanceOf(ValidationError);
            expect(raw.status).toBe(422);
          }
        }),
        // Over HTTP each run is two round trips: fewer runs there, the full count in-process.
        name === 'http' ? Math.max(200, Math.round(FUZZ_RUNS / 5)) : undefined,
      );

      for (const [what, text] of EDGE_TEXTS) {
        it(`2.3, 2.4 ${what} comes back exactly as sent, in a chat name, a turn and its metadata`, async () => {
          const client = target.client();
          const chat = await client.chats.create({ name: text });
          expect(chat.name).toBe(text);
          expect((await client.chats.get(chat.id)).name).toBe(text);
          const turn = await client.turns.send(chat.id, { content: text, metadata: { [text]: text } });
          expect(turn.metadata).toEqual({ [text]: text });
          const [message] = (await client.chats.messages(chat.id)).items;
          expect(message?.prompt).toBe(text);
          const streamed = await client.turns
            .stream(chat.id, { content: text, metadata: { text } })
            .finalTurn();
          expect(streamed.metadata).toEqual({ text });
        });
      }
    });
  }
});
