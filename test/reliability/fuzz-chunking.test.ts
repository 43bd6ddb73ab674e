import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type RelayedStreamEvent, RelayedTurnStream } from '../../src/index.js';
import { fuzz, fuzzTimeout } from '../support/fuzz.js';
import {
  bodyOf,
  chunk,
  chunkingArb,
  comparable,
  encodeSse,
  encodingArb,
  foldOps,
  opsArb,
  printed,
  turnWire,
} from '../support/turn-wire.js';

const encoder = new TextEncoder();
const PLAIN = { eol: '\n', bom: false, comments: false, tight: false } as const;

async function read(chunks: Uint8Array[]): Promise<RelayedStreamEvent[]> {
  const stream = RelayedTurnStream.fromReadableStream(bodyOf(chunks), { pings: true });
  const events: RelayedStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

describe('fuzz: stream bytes in any chunking', () => {
  it(
    '6 any chunking (single bytes, split characters, split CRLF) and any line end, BOM or comments yield the same events',
    () =>
      fuzz(
        'chunking',
        fc.asyncProperty(opsArb, encodingArb, chunkingArb, async (ops, encoding, chunking) => {
          const wire = turnWire(ops, { kind: 'completed', content: foldOps(ops) });
          const reference = await read([encoder.encode(encodeSse(wire, PLAIN))]);
          const bytes = encoder.encode(encodeSse(wire, encoding));
          const got = await read(chunk(bytes, chunking));
          expect(comparable(got)).toEqual(comparable(reference));
          // And the reference itself is the turn: start, one event per op, the text of the model.
          expect(printed(reference)).toBe(foldOps(ops));
          expect(reference.at(-1)?.type).toBe('completed');
        }),
      ),
    fuzzTimeout(2),
  );
});
