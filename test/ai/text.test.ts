import { describe, expect, it } from 'vitest';
import { type SegmentContext, turnChunks } from '../../src/ai/chunks.js';
import { type ConvoChunk, type ConvoUIMessage, messageText, toUIMessageStream } from '../../src/ai/index.js';
import { Client, type TurnStream, type TurnStreamEvent } from '../../src/index.js';
import { collect } from '../support/collect.js';
import { CHAT, finished, sseResponse, sseText, turnEvents } from '../support/sse.js';

/** A delta as the stream hands it out: its text, and the stream's whole folded text after it. */
type Delta = string | [text: string, replace: true];

/** The events of a turn: start, `deltas` folded as the stream folds them, completed with `content`. */
function turn(deltas: Delta[], content?: string): TurnStreamEvent[] {
  let snapshot = '';
  const events: TurnStreamEvent[] = [{ type: 'start', chat_id: 'c', message_id: 7, request_id: 'r' }];
  for (const delta of deltas) {
    const [text, replace] = typeof delta === 'string' ? [delta, false] : delta;
    snapshot = replace ? text : snapshot + text;
    events.push({ type: 'delta', text, replace, snapshot });
  }
  events.push({ type: 'completed', turn: finished(content ?? snapshot) as never });
  return events;
}

/** An iterator over `events`. */
function iterate(events: TurnStreamEvent[]): AsyncIterator<TurnStreamEvent> {
  const values = events[Symbol.iterator]();
  return { next: async () => values.next() };
}

/** Every chunk `turnChunks` writes for `events` after `shown`. */
async function chunksOf(events: AsyncIterator<TurnStreamEvent>, shown = ''): Promise<ConvoChunk[]> {
  const context: SegmentContext = {
    messageId: 'm',
    chatId: 'c',
    idempotencyKey: 'k',
    shown,
    tools: new Set(),
  };
  const chunks: ConvoChunk[] = [];
  const read = turnChunks(events, context);
  for (let next = await read.next(); !next.done; next = await read.next()) chunks.push(next.value);
  return chunks;
}

/** The text chunks of `events` as short strings, the part ids numbered in order: `start 0`, `'Hel' 0`, `replace 3`. */
async function textChunks(events: TurnStreamEvent[], shown = ''): Promise<string[]> {
  const ids: string[] = [];
  const id = (value: string) => {
    if (!ids.includes(value)) ids.push(value);
    return ids.indexOf(value);
  };
  return (await chunksOf(iterate(events), shown)).flatMap((chunk) => {
    if (chunk.type === 'text-start') return [`start ${id(chunk.id)}`];
    if (chunk.type === 'text-delta') return [`'${chunk.delta}' ${id(chunk.id)}`];
    if (chunk.type === 'text-end') return [`end ${id(chunk.id)}`];
    if (chunk.type === 'data-convo-replace') return [`replace ${chunk.data.discardedChars}`];
    return [];
  });
}

describe('the text of a turn as UI chunks', () => {
  it('6 deltas: one text part, each delta its own text-delta, an empty one none', async () => {
    expect(await textChunks(turn(['Hel', 'lo', '', ' you']))).toEqual([
      'start 0',
      "'Hel' 0",
      "'lo' 0",
      "' you' 0",
      'end 0',
    ]);
  });

  it('6 replace: a text that does not extend the shown one is a data-convo-replace part, then a new text part', async () => {
    expect(await textChunks(turn(['abc', ['xy', true], 'z']))).toEqual([
      'start 0',
      "'abc' 0",
      'end 0',
      'replace 3',
      'start 1',
      "'xy' 1",
      "'z' 1",
      'end 1',
    ]);
  });

  it('6 replace: a text that extends the shown one is written as its suffix, one equal to it not at all', async () => {
    expect(await textChunks(turn(['ab', ['abcd', true], ['abcd', true], 'e']))).toEqual([
      'start 0',
      "'ab' 0",
      "'cd' 0",
      "'e' 0",
      'end 0',
    ]);
  });

  it('6 replace: an empty text clears the message (an empty text part after the replace)', async () => {
    expect(await textChunks(turn(['ab', ['', true]]))).toEqual([
      'start 0',
      "'ab' 0",
      'end 0',
      'replace 2',
      'start 1',
      "'' 1",
      'end 1',
    ]);
  });

  it('6 the terminal content is the authority: its suffix when it extends the text, else a replace', async () => {
    expect(await textChunks(turn(['ab'], 'abX'))).toEqual(['start 0', "'ab' 0", "'X' 0", 'end 0']);
    expect(await textChunks(turn(['ab'], 'zz'))).toEqual([
      'start 0',
      "'ab' 0",
      'end 0',
      'replace 2',
      'start 1',
      "'zz' 1",
      'end 1',
    ]);
  });

  it('a continuation writes only what goes beyond what the message shows, and replaces a text that differs', async () => {
    expect(await textChunks(turn(['Hello', ' world', '!']), 'Hello')).toEqual([
      'start 0',
      "' world' 0",
      "'!' 0",
      'end 0',
    ]);
    expect(await textChunks(turn(['Hello', '!']), 'Hi there')).toEqual([
      'replace 8',
      'start 0',
      "'Hello' 0",
      "'!' 0",
      'end 0',
    ]);
  });
});

/**
 * Events of a turn whose strings count the characters the mapping reads of them: each delta's text and
 * snapshot, the terminal content. Beyond these the mapping compares only its own shown text, and only as
 * far as a string it read reaches, so what it reads bounds its work.
 */
function counted(events: TurnStreamEvent[]): { events: AsyncIterator<TurnStreamEvent>; read: () => number } {
  const counter = { read: 0 };
  return { events: iterate(events.map((event) => instrument(event, counter))), read: () => counter.read };
}

/** `event` with its strings counted into `counter` as they are read. */
function instrument(event: TurnStreamEvent, counter: { read: number }): TurnStreamEvent {
  const count = (text: string) => {
    counter.read += text.length;
    return text;
  };
  if (event.type === 'delta') {
    const { text, replace, snapshot } = event;
    return {
      type: 'delta',
      replace,
      get text() {
        return count(text);
      },
      get snapshot() {
        return count(snapshot);
      },
    };
  }
  if (event.type !== 'completed') return event;
  const saved = event.turn;
  return {
    type: 'completed',
    turn: {
      ...saved,
      get content() {
        return count(saved.content);
      },
    },
  };
}

/** `stream` with the events its iterator hands out counted (see `instrument`). */
function countedStream(stream: TurnStream): { stream: TurnStream; read: () => number } {
  const counter = { read: 0 };
  const events = stream[Symbol.asyncIterator]();
  const iterator: AsyncIterator<TurnStreamEvent> = {
    next: async () => {
      const next = await events.next();
      return next.done ? next : { done: false, value: instrument(next.value, counter) };
    },
    return: async () => (await events.return?.()) ?? { done: true, value: undefined },
  };
  const proxy = new Proxy(stream, {
    get(target, key) {
      if (key === Symbol.asyncIterator) return () => iterator;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { stream: proxy, read: () => counter.read };
}

/** The characters a turn's events carry on the wire: each delta's text and the terminal content. */
const wireChars = (events: TurnStreamEvent[]) =>
  events.reduce(
    (sum, event) =>
      sum +
      (event.type === 'delta'
        ? event.text.length
        : event.type === 'completed'
          ? event.turn.content.length
          : 0),
    0,
  );

describe('the mapping reads each character of the wire a bounded number of times', () => {
  const MB = 'a'.repeat(1 << 20);
  const ones = Array.from({ length: 4_000 }, () => 'b');

  it('1 MB then 4,000 one-character deltas: the mapping reads no more characters than the wire carries', async () => {
    const events = turn([MB, ...ones]);
    const { events: read, read: chars } = counted(events);
    const chunks = await chunksOf(read);
    // Comparing every snapshot with the shown text read 4,001 MB here.
    expect(chars()).toBeLessThanOrEqual(wireChars(events));
    const deltas = chunks.flatMap((chunk) => (chunk.type === 'text-delta' ? [chunk.delta] : []));
    expect(deltas).toHaveLength(4_001);
    expect(deltas.join('')).toBe(MB + ones.join(''));
  });

  it('1 MB then 4,000 one-character deltas through toUIMessageStream over a real turn stream: no more read than the wire', async () => {
    const wire = turnEvents([MB, ...ones]);
    const fetch = async () => sseResponse(sseText(wire), { chunks: [65_536] });
    const client = new Client({ baseUrl: 'https://api.test', token: 'test-token', fetch });
    const { stream, read } = countedStream(client.turns.stream(CHAT, { content: 'go' }));
    const chunks = await collect(toUIMessageStream(stream));
    expect(chunks.at(-1)).toMatchObject({ type: 'finish', finishReason: 'stop' });
    // Each delta's character, the first delta's snapshot (1 MB) and the content (1 MB and 4,000).
    expect(read()).toBeLessThanOrEqual(2 * (MB.length + ones.length));
    const text = chunks.flatMap((chunk) => (chunk.type === 'text-delta' ? [chunk.delta] : [])).join('');
    expect(text).toBe(MB + ones.join(''));
  });

  it('a continuation after 1 MB shown: the shown text is compared once, not per delta', async () => {
    const events = turn([MB, ...ones]).filter((_event, n) => n !== 1);
    const { events: read, read: chars } = counted(events);
    const chunks = await chunksOf(read, MB);
    // The first delta's snapshot (1 MB and one character), then each delta's own character, and the content.
    expect(chars()).toBeLessThanOrEqual(wireChars(events) + MB.length + 1);
    expect(chunks.filter((chunk) => chunk.type === 'text-delta')).toHaveLength(4_000);
    expect(chunks.some((chunk) => chunk.type === 'data-convo-replace')).toBe(false);
  });

  it('6 replace after replace: each costs its own new text', async () => {
    const replaces = Array.from({ length: 2_000 }, (_, n): Delta => [n % 2 ? 'x' : 'yy', true]);
    const events = turn([MB, ...replaces]);
    const { events: read, read: chars } = counted(events);
    const chunks = await chunksOf(read);
    expect(chars()).toBeLessThanOrEqual(wireChars(events));
    expect(chunks.filter((chunk) => chunk.type === 'data-convo-replace')).toHaveLength(2_000);
  });

  it('messageText reads each text part once, whatever came before it', () => {
    let read = 0;
    const part = (text: string) => ({
      type: 'text' as const,
      get text() {
        read += text.length;
        return text;
      },
    });
    const parts: ConvoUIMessage['parts'] = [part(MB), ...ones.map(part)];
    parts.push(
      { type: 'data-convo-replace', data: { discardedChars: MB.length + ones.length } },
      part('new'),
    );
    const total = MB.length + ones.length + 'new'.length;
    expect(messageText({ parts })).toBe('new');
    expect(read).toBeLessThanOrEqual(total);
  });
});
