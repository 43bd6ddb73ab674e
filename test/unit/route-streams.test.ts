import { describe, expect, it } from 'vitest';
import { MAX_LIVE_STREAMS, RouteCapacityError } from '../../src/ai/index.js';
import { memoryStreams, watched } from '../../src/ai/route-streams.js';
import { reading, settle } from '../support/stream-reading.js';

/** A source the test writes to. */
function source() {
  let controller!: ReadableStreamDefaultController<string>;
  let cancelled: unknown[] = [];
  const stream = new ReadableStream<string>({
    start(own) {
      controller = own;
    },
    cancel(reason) {
      cancelled = [...cancelled, reason];
    },
  });
  return {
    stream,
    write: (chunk: string) => controller.enqueue(chunk),
    end: () => controller.close(),
    fail: (error: unknown) => controller.error(error),
    cancelled: () => cancelled,
  };
}

describe('memoryStreams: live answers held in this process', () => {
  it('reads each stream to its end whoever reads it; a resume reads from the start, then live; ended, forgotten', async () => {
    const streams = memoryStreams();
    const src = source();
    const page = await streams.createNewResumableStream('a', () => src.stream);
    src.write('one ');
    await settle();
    const resumed = reading(await streams.resumeExistingStream('a'));
    expect(await resumed.now()).toEqual({ text: 'one ', done: false });
    src.write('two');
    src.end();
    expect(await resumed.now()).toEqual({ text: 'two', done: true });
    // Nobody read the page's copy: the source was read to its end all the same.
    expect(await new Response(page?.pipeThrough(new TextEncoderStream())).text()).toBe('one two');
    expect(await streams.resumeExistingStream('a')).toBeUndefined();
    expect(await streams.resumeExistingStream('never')).toBeUndefined();
  });

  it('a source that fails fails every reader with its error, and is forgotten', async () => {
    const streams = memoryStreams();
    const src = source();
    const page = (await streams.createNewResumableStream('a', () => src.stream))?.getReader();
    const resumed = (await streams.resumeExistingStream('a'))?.getReader();
    const failure = new Error('the turn failed');
    src.fail(failure);
    await expect(page?.read()).rejects.toBe(failure);
    await expect(resumed?.read()).rejects.toBe(failure);
    expect(await streams.resumeExistingStream('a')).toBeUndefined();
  });

  it('a reader that left is no longer fed: the others read on to the end', async () => {
    const streams = memoryStreams();
    const src = source();
    const page = await streams.createNewResumableStream('a', () => src.stream);
    const resumed = await streams.resumeExistingStream('a');
    await page?.cancel();
    src.write('one');
    src.end();
    expect(await new Response(resumed?.pipeThrough(new TextEncoderStream())).text()).toBe('one');
  });

  it('holds at most maxStreams (MAX_LIVE_STREAMS by default); an id held again takes no more room, and its old end forgets it not', async () => {
    const streams = memoryStreams(2);
    const a = source();
    const b = source();
    await streams.createNewResumableStream('a', () => a.stream);
    await streams.createNewResumableStream('b', () => b.stream);
    const refused = await streams
      .createNewResumableStream('c', () => source().stream)
      .catch((error) => error);
    expect(refused).toBeInstanceOf(RouteCapacityError);
    expect(refused).toMatchObject({ limit: 2 });
    // The same id again: the new stream replaces the old, whose end leaves the new one held.
    const again = source();
    await streams.createNewResumableStream('a', () => again.stream);
    a.end();
    await settle();
    again.write('new');
    await settle();
    const resumed = reading(await streams.resumeExistingStream('a'));
    expect(await resumed.now()).toEqual({ text: 'new', done: false });
    expect(MAX_LIVE_STREAMS).toBe(1000);
    const many = memoryStreams();
    for (let n = 0; n < MAX_LIVE_STREAMS; n++)
      await many.createNewResumableStream(`s${n}`, () => source().stream);
    await expect(many.createNewResumableStream('one-more', () => source().stream)).rejects.toBeInstanceOf(
      RouteCapacityError,
    );
  });
});

describe('watched: a stream read through, its end told once', () => {
  it('tells of the end once the source ended, after its chunks', async () => {
    const src = source();
    const seen: string[] = [];
    const reader = watched(src.stream, () => seen.push('left')).getReader();
    src.write('a');
    expect(await reader.read()).toEqual({ done: false, value: 'a' });
    expect(seen).toEqual([]);
    src.end();
    expect(await reader.read()).toEqual({ done: true, value: undefined });
    expect(seen).toEqual(['left']);
  });

  it('tells of a failure once, and passes the error on', async () => {
    const src = source();
    let left = 0;
    const reader = watched(src.stream, () => left++).getReader();
    const failure = new Error('broke');
    src.fail(failure);
    await expect(reader.read()).rejects.toBe(failure);
    expect(left).toBe(1);
  });

  it('a cancel while a read waits tells once, and cancels the source with its reason', async () => {
    const src = source();
    let left = 0;
    const reader = watched(src.stream, () => left++).getReader();
    const pending = reader.read();
    await settle();
    await reader.cancel('gone');
    expect(await pending).toEqual({ done: true, value: undefined });
    await settle();
    expect(left).toBe(1);
    expect(src.cancelled()).toEqual(['gone']);
    // A cancel with no read waiting (a chunk queued) tells all the same.
    const queued = source();
    let told = 0;
    const held = watched(queued.stream, () => told++).getReader();
    queued.write('a');
    await settle();
    await held.cancel('gone');
    expect(told).toBe(1);
  });
});
