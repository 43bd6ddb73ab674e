import { beforeEach, describe, expect, it } from 'vitest';
import { HUGE_EVENT_PADDING } from '../../src/mock/http/sse-damage.js';
import { type ConvoMock, createManualClock, createMock } from '../../src/mock/index.js';
import { outcome, parseReply, settle } from './helpers.js';
import { EventReader, folded, names, stream, streamAll, streamRequest } from './sse.js';

let mock: ConvoMock;
let chatId: string;
beforeEach(() => {
  mock = createMock();
  chatId = crypto.randomUUID();
});

async function rawEvents(reader: EventReader) {
  const events = [];
  for (let event = await reader.nextRaw(); event; event = await reader.nextRaw()) events.push(event);
  return events;
}

async function bodyText(response: Response): Promise<string> {
  return new TextDecoder().decode(await response.arrayBuffer());
}

describe('faults on purpose: the stream', () => {
  it('cutAfterEvents: N: the body errors after N events; the turn goes on and is stored', async () => {
    mock.faults.add({ route: 'stream', cutAfterEvents: 3 });
    const reader = await stream(mock, chatId, { content: 'a b c' }, { key: 'k' });
    const seen = [await reader.next(), await reader.next(), await reader.next()];
    expect(names(seen.map((e) => e!))).toEqual(['message.start', 'message.step', 'message.delta']);
    await expect(reader.next()).rejects.toThrow(/cut/);
    await settle();
    expect(mock.store.turns()[0]?.status).toBe('completed');
    expect(names(await streamAll(mock, chatId, { content: 'a b c' }, { key: 'k' })).at(-1)).toBe(
      'message.completed',
    );
  });

  it('cutAfterBytes: N: exactly N bytes arrive, then the body errors', async () => {
    mock.faults.add({ route: 'stream', cutAfterBytes: 50 });
    const response = await mock.handle(streamRequest(mock, chatId, { content: 'x' }));
    const reader = response.body!.getReader();
    let bytes = 0;
    await expect(
      (async () => {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return;
          bytes += value.byteLength;
        }
      })(),
    ).rejects.toThrow(/cut/);
    expect(bytes).toBe(50);
    await settle();
    expect(mock.store.turns()[0]?.status).toBe('completed');
  });

  it('stall: { afterEvents: N }: no byte (no ping) after N events until the client goes away', async () => {
    const clock = createManualClock();
    mock = createMock({ clock, pingMs: 100 });
    mock.faults.add({ route: 'stream', stall: { afterEvents: 1 } });
    const reader = await stream(mock, chatId, { content: 'x' });
    expect((await reader.next())?.event).toBe('message.start');
    let more = false;
    const next = reader.next().then(
      () => (more = true),
      () => (more = true),
    );
    await clock.advance(1000);
    expect(more).toBe(false);
    expect(mock.store.turns()[0]?.status).toBe('completed');
    await reader.cancel();
    await next;
  });

  it('drop before-response on the stream: a network error, the turn runs and is stored', async () => {
    mock.faults.add({ route: 'stream', drop: 'before-response' });
    await expect(mock.fetch(streamRequest(mock, chatId, { content: 'x' }, { key: 'k' }))).rejects.toThrow(
      'fetch failed',
    );
    await settle();
    expect(mock.store.turns()[0]?.status).toBe('completed');
    expect(mock.runs('k')).toBe(1);
  });

  it('respond with afterRun on the stream: the turn runs to the end, then the JSON error answers', async () => {
    mock.faults.add({
      route: 'stream',
      respond: {
        status: 503,
        code: 'api_v1_core_unavailable',
        data: { code: 'persistence_failed' },
        afterRun: true,
      },
    });
    const reply = await parseReply(
      await mock.handle(streamRequest(mock, chatId, { content: 'x' }, { key: 'k' })),
    );
    expect(outcome(reply)).toEqual([503, 'api_v1_core_unavailable']);
    expect(mock.store.turns()[0]?.status).toBe('completed');
  });

  it('stream faults apply to a replay too', async () => {
    await streamAll(mock, chatId, { content: 'x' }, { key: 'k' });
    mock.faults.add({ route: 'stream', cutAfterEvents: 1 });
    const reader = await stream(mock, chatId, { content: 'x' }, { key: 'k' });
    expect((await reader.next())?.event).toBe('message.start');
    await expect(reader.next()).rejects.toThrow(/cut/);
  });
});

describe('faults on purpose: malformed SSE', () => {
  const body = { content: 'a b' };

  it('bom: the body starts with a UTF-8 BOM; eventsource-parser still reads every event', async () => {
    mock.faults.add({ route: 'stream', malformed: 'bom' });
    const response = await mock.handle(streamRequest(mock, chatId, body));
    const bytes = new Uint8Array(await response.clone().arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const events = await new EventReader(response.body!).rest();
    expect(events.at(-1)?.event).toBe('message.completed');
  });

  for (const [kind, eol] of [
    ['crlf', '\r\n'],
    ['cr', '\r'],
  ] as const) {
    it(`${kind}: lines end with ${JSON.stringify(eol)}; the events parse the same`, async () => {
      mock.faults.add({ route: 'stream', malformed: kind });
      const response = await mock.handle(streamRequest(mock, chatId, body));
      const text = await bodyText(response.clone());
      expect(text.startsWith(`event: message.start${eol}data: `)).toBe(true);
      if (kind === 'cr') expect(text).not.toContain('\n');
      const events = await new EventReader(response.body!).rest();
      expect(folded(events)).toBe('Mock answer: a b');
    });
  }

  it('comments: a comment line before every event, ignored by the parser', async () => {
    mock.faults.add({ route: 'stream', malformed: 'comments' });
    const response = await mock.handle(streamRequest(mock, chatId, body));
    expect(await bodyText(response.clone())).toMatch(/^: mock comment\nevent: message.start/);
    expect((await new EventReader(response.body!).rest()).at(-1)?.event).toBe('message.completed');
  });

  it('not-json: an extra message.delta whose data is not JSON, right after message.start', async () => {
    mock.faults.add({ route: 'stream', malformed: 'not-json' });
    const raw = await rawEvents(await stream(mock, chatId, body));
    expect(raw[1]).toEqual({ event: 'message.delta', data: '{not json' });
    expect(raw.at(-1)?.event).toBe('message.completed');
  });

  it('no-data: an extra event line without data, which SSE parsers drop', async () => {
    mock.faults.add({ route: 'stream', malformed: 'no-data' });
    const response = await mock.handle(streamRequest(mock, chatId, body));
    expect(await bodyText(response.clone())).toContain('\n\nevent: message.delta\n\nevent: message.step');
    const events = await new EventReader(response.body!).rest();
    expect(folded(events)).toBe('Mock answer: a b');
  });

  it('unknown-event: an extra event named message.unknown', async () => {
    mock.faults.add({ route: 'stream', malformed: 'unknown-event' });
    const events = await streamAll(mock, chatId, body);
    expect(names(events).slice(0, 3)).toEqual(['message.start', 'message.unknown', 'message.step']);
  });

  it('huge-event: an extra ping of over 1 MiB', async () => {
    mock.faults.add({ route: 'stream', malformed: 'huge-event' });
    const events = await streamAll(mock, chatId, body);
    expect(events[1]?.event).toBe('ping');
    expect(String(events[1]?.data.padding).length).toBe(HUGE_EVENT_PADDING);
    expect(events.at(-1)?.event).toBe('message.completed');
  });

  it('second-terminal: the terminal event twice', async () => {
    mock.faults.add({ route: 'stream', malformed: 'second-terminal' });
    const events = await streamAll(mock, chatId, body);
    expect(names(events).slice(-2)).toEqual(['message.completed', 'message.completed']);
  });

  it('after-terminal: a message.delta after the terminal event', async () => {
    mock.faults.add({ route: 'stream', malformed: 'after-terminal' });
    const events = await streamAll(mock, chatId, body);
    expect(names(events).slice(-2)).toEqual(['message.completed', 'message.delta']);
  });
});
