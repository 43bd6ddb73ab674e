import { createParser } from 'eventsource-parser';
import { describe, expect, it } from 'vitest';
import { EventParser } from '../../src/stream/sse-parser.js';

/** What eventsource-parser, the reference, reads of `chunks`: each event's name (`message` by default) and data. */
function reference(chunks: string[]) {
  const events: { event: string; data: string }[] = [];
  const parser = createParser({ onEvent: (e) => events.push({ event: e.event ?? 'message', data: e.data }) });
  for (const chunk of chunks) parser.feed(chunk);
  return events;
}

function parsed(chunks: string[], max = 1 << 20) {
  const parser = new EventParser(max);
  const fits = chunks.map((chunk) => parser.feed(chunk));
  return { events: parser.events, fits };
}

const STREAM = [
  'event: message.start\ndata: {"a":1}\n\n',
  ': a comment\n',
  'data:no space\r\n\r\n',
  'event:message.delta\rdata: one\rdata:  two\r\r',
  'data\n\n',
  'data:\n\n',
  'data: \n\n',
  'event: message.delta\nid: 7\nretry: 100\nfield: x\nnocolon\ndata: a:b: c\n\n',
  'event:\ndata: default name\n\n',
  'event: only a name\n\n',
  'data: é 😀 ok\n\n',
  'data: unfinished at the end',
].join('');

describe('6 the event-stream parser', () => {
  it('reads what eventsource-parser reads of a whole stream: LF, CR and CRLF lines, comments, fields, defaults', () => {
    expect(parsed([STREAM]).events).toEqual(reference([STREAM]));
    expect(parsed([STREAM]).events).toHaveLength(9);
  });

  it('reads the same at every cut of the stream into two chunks (a CRLF split between them included)', () => {
    for (let cut = 0; cut <= STREAM.length; cut++) {
      const chunks = [STREAM.slice(0, cut), STREAM.slice(cut)];
      expect(parsed(chunks).events, `cut at ${cut}`).toEqual(reference(chunks));
    }
  });

  it('reads the same fed one character at a time', () => {
    const chunks = [...STREAM];
    expect(parsed(chunks).events).toEqual(reference(chunks));
  });

  it('a LF after a chunk ending in CR ends no second line; after CR CR it does', () => {
    expect(parsed(['data: a\r', '\ndata: b\r', '\n\r', '\n']).events).toEqual([
      { event: 'message', data: 'a\nb' },
    ]);
    expect(parsed(['data: a\r', '\r']).events).toEqual([{ event: 'message', data: 'a' }]);
  });

  it('says when an event outgrows the bound: its data, or an unfinished line, past it', () => {
    expect(parsed(['data: 12345\n'], 5).fits).toEqual([true]);
    expect(parsed(['data: 123456\n'], 5).fits).toEqual([false]);
    expect(parsed(['data: 1234', '5'], 10).fits).toEqual([true, false]);
    expect(parsed(['data: 12345\ndata: 1\n'], 8).fits).toEqual([true]);
    expect(parsed(['data: 12345\ndata: 123\n'], 8).fits).toEqual([false]);
  });

  it('a line split over many chunks is joined once, with its colon and its data intact', () => {
    const chunks = ['ev', 'ent', ': name\nda', 'ta', ':', ' x', 'y', 'z\n', '\n'];
    expect(parsed(chunks).events).toEqual([{ event: 'name', data: 'xyz' }]);
    expect(parsed(chunks).events).toEqual(reference(chunks));
  });
});
