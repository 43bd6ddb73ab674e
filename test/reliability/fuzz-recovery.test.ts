import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { collect } from '../support/collect.js';
import { fakeClient } from '../support/fake-client.js';
import { fakeFetch } from '../support/fake-fetch.js';
import { itFuzzes } from '../support/fuzz.js';
import { CHAT, finished, type WireEvent } from '../support/sse.js';
import {
  bodyOf,
  encodingArb,
  foldOps,
  type Op,
  opsArb,
  printed,
  sseBytes,
  step,
  turnWire,
} from '../support/turn-wire.js';

/** What the service re-delivers for a finished key (4.4): like the mock, start, the steps, the content, the end. */
function compactReplay(ops: readonly Op[], content: string): WireEvent[] {
  const steps = ops.flatMap((op) => (op.t === 'step' ? [step(op.n)] : []));
  return [
    ['message.start', { chat_id: CHAT, message_id: 7, request_id: 'req-2' }],
    ...(steps.length > 0 ? [['message.step', { steps }] as WireEvent] : []),
    ...(content === '' ? [] : [['message.delta', { text: content, replace: false }] as WireEvent]),
    ['message.completed', finished(content)],
  ];
}

const sse = (chunks: Uint8Array[], end: 'close' | 'error') =>
  new Response(bodyOf(chunks, end), { headers: { 'content-type': 'text/event-stream' } });

describe('fuzz: a stream cut at any byte, then recovered through the key', () => {
  itFuzzes(
    '4.4 the caller gets exactly the final content, each character once, whatever byte the cut falls on',
    'recovery',
    3,
    fc.asyncProperty(
      opsArb,
      encodingArb,
      fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }),
      fc.constantFrom('close' as const, 'error' as const),
      fc.constantFrom('same events' as const, 'compact replay' as const),
      async (ops, encoding, at, end, replayKind) => {
        const content = foldOps(ops);
        const wire = turnWire(ops, { kind: 'completed', content });
        const bytes = sseBytes(wire, encoding);
        const cut = Math.floor(at * bytes.length);
        const replay = replayKind === 'same events' ? wire : compactReplay(ops, content);
        const { fetch, requests } = fakeFetch(
          () => sse([bytes.slice(0, cut)], end),
          () => sse([sseBytes(replay)], 'close'),
        );
        const client = fakeClient(fetch, { retryDelay: { min: 0, max: 0 } });
        const stream = client.turns.stream(CHAT, { content: 'x' });
        const events = await collect(stream);

        expect(events.filter((e) => e.type === 'start')).toHaveLength(1);
        expect(events.filter((e) => e.type === 'completed')).toHaveLength(1);
        expect(events.at(-1)?.type).toBe('completed');
        expect(printed(events)).toBe(content);
        expect(stream.text).toBe(content);
        expect((await stream.finalTurn()).content).toBe(content);
        if (!ops.some((op) => op.t === 'delta' && op.replace)) {
          // Nothing shown twice, nothing taken back: the deltas add up to the content.
          expect(events.some((e) => e.type === 'delta' && e.replace)).toBe(false);
          expect(events.flatMap((e) => (e.type === 'delta' ? [e.text] : [])).join('')).toBe(content);
        }
        // Each interaction once, whatever the replay repeats.
        const actions = events.flatMap((e) =>
          e.type === 'action_required' ? [e.interaction.action_id] : [],
        );
        expect(new Set(actions).size).toBe(actions.length);
        // Each step once too, though a compact replay carries them all in one event.
        const steps = events.flatMap((e) => (e.type === 'step' ? e.steps.map((s) => s.key) : []));
        expect(steps, 'each step once').toEqual([...new Set(steps)]);
        expect(requests.length).toBeLessThanOrEqual(2);
        expect(new Set(requests.map((r) => r.headers.get('idempotency-key'))).size).toBe(1);
        expect(requests.every((r) => JSON.stringify(r.body) === JSON.stringify(requests[0]?.body))).toBe(
          true,
        );
      },
    ),
  );
});
