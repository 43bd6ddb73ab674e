import { describe, expect, it, vi } from 'vitest';
import { ConvoError } from '../../src/errors/index.js';
import { Delivery } from '../../src/stream/delivery.js';
import type { StreamEvent } from '../../src/stream/events.js';
import { completedTurn } from '../support/fake-fetch.js';

type Event = StreamEvent<unknown>;
const delta = (text: string): Event => ({ type: 'delta', text, replace: false, snapshot: text });
const completed = { type: 'completed', turn: completedTurn('c', { content: 'ab' }) } as unknown as Event;

/** A source that yields `batches` (an Error is thrown in its place), each when asked, and records its close. */
function source(batches: (Event[] | Error)[]) {
  const closed = vi.fn(async () => ({ done: true as const, value: undefined }));
  let at = 0;
  const pulls = vi.fn(async (): Promise<IteratorResult<Event[]>> => {
    const batch = batches[at++];
    if (batch instanceof Error) throw batch;
    return batch ? { done: false, value: batch } : { done: true, value: undefined };
  });
  return { iterator: { next: pulls, return: closed } as AsyncIterator<Event[]>, pulls, closed };
}

function hooks(observe: (event: Event) => void = () => {}) {
  return { observe: vi.fn(observe), ended: vi.fn(), failed: vi.fn() };
}

async function drain(delivery: Delivery<Event>): Promise<Event[]> {
  const events: Event[] = [];
  for await (const event of delivery) events.push(event);
  return events;
}

describe('Delivery: the events of a chunked source, one call at a time', () => {
  it('hands out every event in order, skipping empty batches, observes each, and ends after the terminal one', async () => {
    const { iterator, pulls, closed } = source([[delta('a')], [], [delta('b'), completed], [delta('never')]]);
    const seen = hooks();
    const delivery = new Delivery(iterator, seen);
    expect(await drain(delivery)).toEqual([delta('a'), delta('b'), completed]);
    expect(seen.observe.mock.calls.map(([event]) => event)).toEqual([delta('a'), delta('b'), completed]);
    expect(seen.ended).toHaveBeenCalledExactlyOnceWith(completed);
    expect(seen.failed).not.toHaveBeenCalled();
    // The batch after the terminal event's is never asked for; the source is closed once.
    expect(pulls).toHaveBeenCalledTimes(3);
    expect(closed).toHaveBeenCalledTimes(1);
    expect(await delivery.next()).toEqual({ done: true, value: undefined });
    expect(closed).toHaveBeenCalledTimes(1);
    expect(seen.failed).not.toHaveBeenCalled();
  });

  it('a source without return() is closed without one', async () => {
    const { pulls } = source([[delta('a'), completed]]);
    const delivery = new Delivery({ next: pulls }, hooks());
    expect(await drain(delivery)).toEqual([delta('a'), completed]);
    expect(await delivery.next()).toEqual({ done: true, value: undefined });
  });

  it('a source that ends without a terminal event fails the reading once, and closes it', async () => {
    const { iterator, closed } = source([[delta('a')]]);
    const seen = hooks();
    const delivery = new Delivery(iterator, seen);
    expect(await delivery.next()).toEqual({ done: false, value: delta('a') });
    const error = await delivery.next().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConvoError);
    expect((error as Error).message).toBe('the stream ended without a terminal event');
    expect(seen.failed).toHaveBeenCalledExactlyOnceWith(error);
    expect(closed).toHaveBeenCalledTimes(1);
    expect(await delivery.next()).toEqual({ done: true, value: undefined });
    expect(seen.failed).toHaveBeenCalledTimes(1);
  });

  it('a failing source: its error reaches the caller after the events before it, and the next call is done', async () => {
    const broken = new Error('broken');
    const { iterator, closed } = source([[delta('a')], broken]);
    const seen = hooks();
    const delivery = new Delivery(iterator, seen);
    expect((await delivery.next()).value).toEqual(delta('a'));
    await expect(delivery.next()).rejects.toBe(broken);
    expect(seen.failed).toHaveBeenCalledExactlyOnceWith(broken);
    expect(closed).toHaveBeenCalledTimes(1);
    expect(await delivery.next()).toEqual({ done: true, value: undefined });
  });

  it('an observer that throws on an event already read fails the reading with its error', async () => {
    const thrown = new Error('listener');
    const { iterator, closed } = source([[delta('a'), delta('b'), completed]]);
    const seen = hooks((event) => {
      if (event.type === 'delta' && event.text === 'b') throw thrown;
    });
    const delivery = new Delivery(iterator, seen);
    expect((await delivery.next()).value).toEqual(delta('a'));
    await expect(delivery.next()).rejects.toBe(thrown);
    expect(seen.failed).toHaveBeenCalledExactlyOnceWith(thrown);
    expect(closed).toHaveBeenCalledTimes(1);
    expect(await delivery.next()).toEqual({ done: true, value: undefined });
  });

  it('return() before the terminal event says the stream was closed early and closes the source', async () => {
    const { iterator, closed } = source([[delta('a'), delta('b')]]);
    const seen = hooks();
    const delivery = new Delivery(iterator, seen);
    await delivery.next();
    expect(await delivery.return()).toEqual({ done: true, value: undefined });
    expect(seen.failed).toHaveBeenCalledTimes(1);
    expect((seen.failed.mock.calls[0]![0] as Error).message).toBe(
      'the stream was closed before its terminal event',
    );
    expect(closed).toHaveBeenCalledTimes(1);
    // Closed: the rest of the batch is not handed out.
    expect(await delivery.next()).toEqual({ done: true, value: undefined });
    await delivery.return();
    expect(seen.failed).toHaveBeenCalledTimes(1);
    expect(closed).toHaveBeenCalledTimes(1);
  });

  it('return() after the terminal event fails nothing', async () => {
    const { iterator, closed } = source([[completed]]);
    const seen = hooks();
    const delivery = new Delivery(iterator, seen);
    await delivery.next();
    expect(await delivery.return()).toEqual({ done: true, value: undefined });
    expect(seen.failed).not.toHaveBeenCalled();
    expect(closed).toHaveBeenCalledTimes(1);
  });

  it('calls made before the earlier ones settled run after them, in order', async () => {
    const { iterator } = source([[delta('a')], [delta('b'), delta('c')], [completed]]);
    const delivery = new Delivery(iterator, hooks());
    const calls = [delivery.next(), delivery.next(), delivery.next(), delivery.next(), delivery.next()];
    expect(await Promise.all(calls)).toEqual([
      { done: false, value: delta('a') },
      { done: false, value: delta('b') },
      { done: false, value: delta('c') },
      { done: false, value: completed },
      { done: true, value: undefined },
    ]);
  });

  it('a call made after the first settled, while the second still waits, runs after the second', async () => {
    let release!: (batch: IteratorResult<Event[]>) => void;
    const batches: (() => Promise<IteratorResult<Event[]>>)[] = [
      async () => ({ done: false, value: [delta('a')] }),
      () => new Promise((resolve) => (release = resolve)),
      async () => ({ done: false, value: [completed] }),
    ];
    let at = 0;
    const delivery = new Delivery({ next: () => batches[at++]!() }, hooks());
    const first = delivery.next();
    const second = delivery.next();
    expect(await first).toEqual({ done: false, value: delta('a') });
    for (let turns = 0; turns < 100 && at < 2; turns++) await Promise.resolve();
    expect(at).toBe(2);
    // The second waits for its chunk; the third must wait for the second, not read a chunk of its own.
    const third = delivery.next();
    release({ done: false, value: [delta('b'), delta('c')] });
    expect(await second).toEqual({ done: false, value: delta('b') });
    expect(await third).toEqual({ done: false, value: delta('c') });
    expect(await delivery.next()).toEqual({ done: false, value: completed });
  });

  it('a call made while a failing one waits runs after it, and is done', async () => {
    const broken = new Error('broken');
    const { iterator } = source([broken]);
    const delivery = new Delivery(iterator, hooks());
    const first = delivery.next();
    const second = delivery.next();
    const closing = delivery.return();
    await expect(first).rejects.toBe(broken);
    expect(await second).toEqual({ done: true, value: undefined });
    expect(await closing).toEqual({ done: true, value: undefined });
  });

  it('a return() made while a read waits runs after it, and closes the source once', async () => {
    const { iterator, closed } = source([[delta('a'), delta('b')]]);
    const seen = hooks();
    const delivery = new Delivery(iterator, seen);
    const read = delivery.next();
    const closing = delivery.return();
    expect(await read).toEqual({ done: false, value: delta('a') });
    expect(await closing).toEqual({ done: true, value: undefined });
    expect(seen.failed).toHaveBeenCalledTimes(1);
    expect(closed).toHaveBeenCalledTimes(1);
  });

  it('is its own async iterator', () => {
    const delivery = new Delivery(source([]).iterator, hooks());
    expect(delivery[Symbol.asyncIterator]()).toBe(delivery);
  });
});
