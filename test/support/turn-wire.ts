import fc from 'fast-check';
import type { StreamEvent } from '../../src/index.js';
import { CHAT, finished, type WireEvent } from './sse.js';

/**
 * Random turns on the wire, for the fuzzers: what a stream may carry between `message.start` and its
 * terminal event, how its bytes may be encoded (line ends, BOM, comments) and cut into chunks, and the
 * simple model of the text the caller must end up with.
 */

/** One thing a turn's stream carries between its start and its end. */
export type Op =
  | { t: 'delta'; text: string; replace: boolean }
  | { t: 'step'; n: number }
  | { t: 'ping'; ts: number }
  | { t: 'action'; n: number }
  | { t: 'unknown'; name: string; data: unknown };

/** Texts that stress the decoder: astral characters, combining marks, line breaks and SSE syntax inside. */
export const textArb = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 6 }),
  fc.string({ unit: 'grapheme-composite', maxLength: 3 }),
  fc.constantFrom(
    '😀',
    'é',
    'e\u0301',
    '👩‍👩‍👧',
    '€',
    '\u2028',
    '\r\n',
    '\r',
    'data: x\n\n',
    ':',
    '\u0000',
    ' ',
  ),
);

/** One op; steps and interactions are numbered by position so that each is distinct, as on the wire. */
const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({ t: fc.constant('delta' as const), text: textArb, replace: fc.constant(false) }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ t: fc.constant('delta' as const), text: textArb, replace: fc.constant(true) }),
  },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('step' as const), n: fc.constant(0) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      t: fc.constant('ping' as const),
      ts: fc.double({ min: 0, max: 2e9, noNaN: true }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('action' as const), n: fc.constant(0) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      t: fc.constant('unknown' as const),
      name: fc.constantFrom('message.thinking', 'x-custom', 'message'),
      data: fc.jsonValue({ maxDepth: 2 }),
    }),
  },
);

/** A sequence of ops, steps and interactions numbered by position. */
export const opsArb = fc
  .array(opArb, { maxLength: 24 })
  .map((ops) => ops.map((op, n) => (op.t === 'step' || op.t === 'action' ? { ...op, n } : op)));

/** The model: what the text is after `ops` (a suffix appended, or the whole text replaced). */
export function foldOps(ops: readonly Op[]): string {
  return ops.reduce((text, op) => (op.t !== 'delta' ? text : op.replace ? op.text : text + op.text), '');
}

/** The wire events of a turn: start, the ops, then the terminal event carrying `content`. */
export function turnWire(
  ops: readonly Op[],
  end: { kind: 'completed' | 'cancelled'; content: string } | { kind: 'error'; code: string },
): WireEvent[] {
  const events: WireEvent[] = [['message.start', { chat_id: CHAT, message_id: 7, request_id: 'req-1' }]];
  for (const op of ops) {
    switch (op.t) {
      case 'delta':
        events.push(['message.delta', { text: op.text, replace: op.replace }]);
        break;
      case 'step':
        events.push(['message.step', { steps: [step(op.n)] }]);
        break;
      case 'ping':
        events.push(['ping', { ts: op.ts }]);
        break;
      case 'action':
        events.push(['message.action_required', action(op.n)]);
        break;
      case 'unknown':
        events.push([op.name, op.data]);
        break;
    }
  }
  if (end.kind === 'error')
    events.push(['message.error', { code: end.code, message: 'failed', retryable: false }]);
  else events.push([`message.${end.kind}`, finished(end.content)]);
  return events;
}

export function step(n: number) {
  return {
    key: `step-${n}`,
    label: 'Thinking',
    label_code: 'reasoning',
    status: 'completed',
    timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString(),
  };
}

export function action(n: number) {
  return {
    kind: 'tool_approval',
    action_id: `act_${n}`,
    payload: { tools: [{ tool_use_id: `toolu_${n}`, name: 'search', server: 'github', input: { q: 'x' } }] },
  };
}

/** How the bytes of a stream are written. */
export interface Encoding {
  eol: '\n' | '\r\n' | '\r';
  bom: boolean;
  /** A `: comment` line before each event. */
  comments: boolean;
  /** `data:{...}` without the optional space. */
  tight: boolean;
}

export const encodingArb: fc.Arbitrary<Encoding> = fc.record({
  eol: fc.constantFrom('\n' as const, '\r\n' as const, '\r' as const),
  bom: fc.boolean(),
  comments: fc.boolean(),
  tight: fc.boolean(),
});

/** The usual way: LF line ends, no BOM, no comments, a space after each colon. */
export const PLAIN: Encoding = { eol: '\n', bom: false, comments: false, tight: false };

const encoder = new TextEncoder();

/** The UTF-8 bytes of `events` written as `encoding` says (PLAIN by default). */
export function sseBytes(events: readonly WireEvent[], encoding: Encoding = PLAIN): Uint8Array {
  return encoder.encode(encodeSse(events, encoding));
}

/** The SSE text of `events` written as `encoding` says. */
export function encodeSse(events: readonly WireEvent[], encoding: Encoding): string {
  const { eol } = encoding;
  const space = encoding.tight ? '' : ' ';
  const body = events
    .map(([event, data]) => {
      const comment = encoding.comments ? `: keep-alive${eol}` : '';
      return `${comment}event:${space}${event}${eol}data:${space}${JSON.stringify(data)}${eol}${eol}`;
    })
    .join('');
  return (encoding.bom ? '\uFEFF' : '') + body;
}

/** How the bytes are cut into chunks. */
export type Chunking =
  | { mode: 'whole' }
  | { mode: 'single-bytes' }
  /** Inside every multi-byte character. */
  | { mode: 'split-chars' }
  /** Between every CR and the LF after it. */
  | { mode: 'split-crlf' }
  | { mode: 'random'; cuts: number[] };

export const chunkingArb: fc.Arbitrary<Chunking> = fc.oneof(
  fc.constant({ mode: 'single-bytes' as const }),
  fc.constant({ mode: 'split-chars' as const }),
  fc.constant({ mode: 'split-crlf' as const }),
  fc.record({
    mode: fc.constant('random' as const),
    cuts: fc.uniqueArray(fc.nat({ max: 4096 }), { maxLength: 12 }),
  }),
);

/** `bytes` cut as `chunking` says. */
export function chunk(bytes: Uint8Array, chunking: Chunking): Uint8Array[] {
  let cuts: number[];
  switch (chunking.mode) {
    case 'whole':
      return [bytes];
    case 'single-bytes':
      return Array.from(bytes, (byte) => Uint8Array.of(byte));
    case 'split-chars':
      // A UTF-8 continuation byte (10xxxxxx) is inside a character: cut before it.
      cuts = [...bytes.keys()].filter((i) => ((bytes[i] ?? 0) & 0xc0) === 0x80);
      break;
    case 'split-crlf':
      cuts = [...bytes.keys()].filter((i) => i > 0 && bytes[i - 1] === 0x0d && bytes[i] === 0x0a);
      break;
    case 'random':
      cuts = chunking.cuts.map((cut) => (bytes.length === 0 ? 0 : cut % bytes.length));
      break;
  }
  const points = [...new Set([0, ...cuts, bytes.length])].sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  for (let i = 1; i < points.length; i++) chunks.push(bytes.slice(points[i - 1], points[i]));
  return chunks.filter((part) => part.length > 0);
}

/** A body delivering `chunks` one read at a time, then closing, or erroring like a reset connection. */
export function bodyOf(
  chunks: readonly Uint8Array[],
  end: 'close' | 'error' = 'close',
): ReadableStream<Uint8Array> {
  let index = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = chunks[index++];
      if (next) controller.enqueue(next);
      else if (end === 'error') controller.error(new TypeError('terminated'));
      else controller.close();
    },
  });
}

/** The events compared across readings: interactions by what they carry, not by object identity. */
export function comparable(
  events: readonly StreamEvent<{ kind: string; action_id: string; raw: unknown }>[],
): unknown[] {
  return events.map((event) =>
    event.type === 'action_required'
      ? {
          type: event.type,
          kind: event.interaction.kind,
          action_id: event.interaction.action_id,
          raw: event.interaction.raw,
        }
      : event,
  );
}

/** The text a reader printing each delta would show: suffixes appended, a replace restarting. */
export function printed(events: readonly StreamEvent<unknown>[]): string {
  return events.reduce((text, e) => (e.type === 'delta' ? (e.replace ? e.text : text + e.text) : text), '');
}

/** Each delta of `events` as `[text, replace]`, in order. */
export function deltaPairs(events: readonly StreamEvent<unknown>[]): (readonly [string, boolean])[] {
  return events.flatMap((e) => (e.type === 'delta' ? [[e.text, e.replace] as const] : []));
}
