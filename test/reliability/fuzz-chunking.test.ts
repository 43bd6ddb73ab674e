import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { type RelayedStreamEvent, RelayedTurnStream } from '../../src/index.js';
import { collect } from '../support/collect.js';
import { itFuzzes } from '../support/fuzz.js';
import {
  bodyOf,
  chunk,
  chunkingArb,
  comparable,
  encodingArb,
  foldOps,
  opsArb,
  printed,
  sseBytes,
  turnWire,
} from '../support/turn-wire.js';

async function read(chunks: Uint8Array[]): Promise<RelayedStreamEvent[]> {
  return collect(RelayedTurnStream.fromReadableStream(bodyOf(chunks), { pings: true }));
}

describe('fuzz: stream bytes in any chunking', () => {
  itFuzzes(
    '6 any chunking (single bytes, split characters, split CRLF) and any line end, BOM or comments yield the same events',
    'chunking',
    2,
    fc.asyncProperty(opsArb, encodingArb, chunkingArb, async (ops, encoding, chunking) => {
      const wire = turnWire(ops, { kind: 'completed', content: foldOps(ops) });
      const reference = await read([sseBytes(wire)]);
      const bytes = sseBytes(wire, encoding);
      const got = await read(chunk(bytes, chunking));
      expect(comparable(got)).toEqual(comparable(reference));
      // And the reference itself is the turn: start, one event per op, the text of the model.
      expect(printed(reference)).toBe(foldOps(ops));
      expect(reference.at(-1)?.type).toBe('completed');
    }),
  );
});
