import { describe, expect, it } from 'vitest';
import { RouteCapacityError } from '../../src/ai/index.js';
import { type HoldBounds, Holds } from '../../src/ai/route-holds.js';
import { memoryStreams, type RouteStreams } from '../../src/ai/route-streams.js';

const BOUNDS: HoldBounds = { maxStreams: 10, maxBytes: 1000, callerStreams: 5, callerBytes: 1000 };

const RELEASED = `data: ${JSON.stringify({
  type: 'error',
  errorText: 'the held answer was released (maxHeldBytes): resume to read the turn again',
})}\n\n`;

/** A source the test writes to. */
function source() {
  let controller!: ReadableStreamDefaultController<string>;
  let cancelled = 0;
  const stream = new ReadableStream<string>({
    start(own) {
      controller = own;
    },
    cancel() {
      cancelled++;
    },
  });
  return {
    stream,
    make: () => stream,
    write: (chunk: string) => controller.enqueue(chunk),
    end: () => controller.close(),
    fail: (error: unknown) => controller.error(error),
    cancelled: () => cancelled,
  };
}

/** Lets pending work run for a count of macrotasks (not a duration). */
async function flush(count = 10): Promise<void> {
  for (let turn = 0; turn < count; turn++) await new Promise((resolve) => setImmediate(resolve));
}

/** Reads `stream` as it comes: `now()` is what it gave so far, and whether it ended. */
function tap(stream: ReadableStream<string>) {
  const state = { text: '', done: false };
  const reader = stream.getReader();
  void (async () => {
    for (;;) {
      const next = await reader.read();
      if (next.done) break;
      state.text += next.value;
    }
    state.done = true;
  })();
  return {
    now: async () => {
      await flush(3);
      return { ...state };
    },
  };
}

const nothing = async () => {};

/** An engine that records the copies it was given and reads them itself, as `resumable-stream` does. */
function recordingEngine(returns: 'stream' | 'null' = 'stream') {
  const copies = new Map<
    string,
    { text: string; done: boolean; reader: ReadableStreamDefaultReader<string> }
  >();
  const engine: RouteStreams = {
    async createNewResumableStream(streamId, makeStream) {
      const reader = makeStream().getReader();
      const copy = { text: '', done: false, reader };
      copies.set(streamId, copy);
      void (async () => {
        for (;;) {
          const next = await reader.read().catch(() => ({ done: true as const, value: undefined }));
          if (next.done) {
            copy.done = true;
            return;
          }
          copy.text += next.value;
        }
      })();
      return returns === 'null' ? null : new ReadableStream<string>();
    },
    resumeExistingStream: async () => undefined,
  };
  return { engine, copies };
}

function refusal(holds: Holds, caller: string): unknown {
  try {
    holds.admit(caller);
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('Holds.admit: the count bounds', () => {
  it("a caller is admitted up to its share exactly, and others' holds do not count toward it", async () => {
    const holds = new Holds(memoryStreams(), { ...BOUNDS, callerStreams: 2, maxStreams: 10 });
    await holds.open('b1', 'bob', source().make, nothing);
    await holds.open('b2', 'bob', source().make, nothing);
    expect(refusal(holds, 'alice')).toBeUndefined();
    await holds.open('a1', 'alice', source().make, nothing);
    expect(refusal(holds, 'alice')).toBeUndefined();
    await holds.open('a2', 'alice', source().make, nothing);
    expect(refusal(holds, 'alice')).toMatchObject({ scope: 'caller', limit: 2 });
    expect(refusal(holds, 'bob')).toMatchObject({ scope: 'caller', limit: 2 });
    await expect(holds.open('a3', 'alice', source().make, nothing)).rejects.toBeInstanceOf(
      RouteCapacityError,
    );
  });

  it('the route is admitted up to maxStreams exactly; its bound is checked before the caller’s', async () => {
    const holds = new Holds(memoryStreams(), { ...BOUNDS, callerStreams: 1, maxStreams: 2 });
    await holds.open('a', 'alice', source().make, nothing);
    expect(refusal(holds, 'bob')).toBeUndefined();
    await holds.open('b', 'bob', source().make, nothing);
    expect(refusal(holds, 'alice')).toMatchObject({ scope: 'route', limit: 2 });
    expect(refusal(holds, 'carol')).toMatchObject({ scope: 'route', limit: 2 });
  });

  it('an answer that ended frees its place', async () => {
    const holds = new Holds(memoryStreams(), { ...BOUNDS, callerStreams: 1, maxStreams: 1 });
    const src = source();
    const page = await holds.open('a', 'alice', src.make, nothing);
    expect(holds.reading('a')).toBe(true);
    src.end();
    await page.pipeTo(new WritableStream());
    await flush();
    expect(holds.reading('a')).toBe(false);
    expect(refusal(holds, 'alice')).toBeUndefined();
  });
});

describe('Holds.open: the page, the engine’s copy, the end', () => {
  it('the engine refusing for capacity holds nothing: the refused answer is not reading', async () => {
    const holds = new Holds(memoryStreams(1), BOUNDS);
    await holds.open('a', 'alice', source().make, nothing);
    await expect(holds.open('b', 'bob', source().make, nothing)).rejects.toBeInstanceOf(RouteCapacityError);
    expect(holds.reading('b')).toBe(false);
    expect(holds.reading('a')).toBe(true);
  });

  it('an engine that fails after taking its copy: the copy is ended, the page reads the whole answer unheld', async () => {
    let copy: ReadableStreamDefaultReader<string> | undefined;
    const engine: RouteStreams = {
      async createNewResumableStream(_streamId, makeStream) {
        copy = makeStream().getReader();
        throw new Error('connection lost');
      },
      resumeExistingStream: async () => undefined,
    };
    const holds = new Holds(engine, BOUNDS);
    const src = source();
    const page = await holds.open('a', 'alice', src.make, nothing);
    expect(await copy?.read()).toEqual({ done: true, value: undefined });
    src.write('hello ');
    src.write('world');
    await flush();
    expect(holds.bytes).toBe(0);
    src.end();
    let text = '';
    for await (const chunk of page) text += chunk;
    expect(text).toBe('hello world');
  });

  it('an engine that hands back no stream (null) still holds its copy and counts its bytes', async () => {
    const { engine, copies } = recordingEngine('null');
    const holds = new Holds(engine, BOUNDS);
    const src = source();
    await holds.open('a', 'alice', src.make, nothing);
    src.write('abcd');
    await flush();
    expect(holds.bytes).toBe(4);
    expect(copies.get('a')?.text).toBe('abcd');
  });

  it('a second copy the engine hands back is cancelled, and its failing cancel is ignored', async () => {
    let cancelled = 0;
    const engine: RouteStreams = {
      async createNewResumableStream(_streamId, makeStream) {
        void makeStream().pipeTo(new WritableStream());
        return new ReadableStream<string>({
          cancel() {
            cancelled++;
            throw new Error('already gone');
          },
        });
      },
      resumeExistingStream: async () => undefined,
    };
    const holds = new Holds(engine, BOUNDS);
    const src = source();
    const page = await holds.open('a', 'alice', src.make, nothing);
    await flush();
    expect(cancelled).toBe(1);
    src.write('x');
    src.end();
    let text = '';
    for await (const chunk of page) text += chunk;
    expect(text).toBe('x');
  });

  it('bytes are counted per chunk (UTF-16 length) while held, and go back to 0 at the end; the copy ends after settle', async () => {
    const { engine, copies } = recordingEngine();
    const holds = new Holds(engine, BOUNDS);
    const src = source();
    const seen: boolean[] = [];
    const page = await holds.open('a', 'alice', src.make, async () => {
      seen.push(copies.get('a')?.done ?? false);
    });
    src.write('ab');
    src.write('cde');
    await flush();
    expect(holds.bytes).toBe(5);
    src.end();
    await page.pipeTo(new WritableStream());
    await flush();
    expect(seen).toEqual([false]);
    expect(copies.get('a')).toMatchObject({ text: 'abcde', done: true });
    expect(holds.bytes).toBe(0);
  });

  it('a settle that fails still ends the page and the copy normally', async () => {
    const { engine, copies } = recordingEngine();
    const holds = new Holds(engine, BOUNDS);
    const src = source();
    const page = await holds.open('a', 'alice', src.make, async () => {
      throw new Error('store away');
    });
    src.write('done');
    src.end();
    let text = '';
    for await (const chunk of page) text += chunk;
    expect(text).toBe('done');
    await flush();
    expect(copies.get('a')).toMatchObject({ text: 'done', done: true });
  });

  it('a source that fails fails the engine’s copy too', async () => {
    const errors: unknown[] = [];
    const engine: RouteStreams = {
      async createNewResumableStream(_streamId, makeStream) {
        makeStream()
          .pipeTo(new WritableStream())
          .catch((error: unknown) => errors.push(error));
        return null;
      },
      resumeExistingStream: async () => undefined,
    };
    const holds = new Holds(engine, BOUNDS);
    const src = source();
    const page = await holds.open('a', 'alice', src.make, nothing);
    const broken = new Error('broken');
    src.fail(broken);
    await expect(page.pipeTo(new WritableStream())).rejects.toBe(broken);
    await flush();
    expect(errors).toEqual([broken]);
  });

  it('an answer opened again under the same id: the first one’s end leaves the second reading', async () => {
    const holds = new Holds(memoryStreams(), BOUNDS);
    const first = source();
    const firstPage = await holds.open('a', 'alice', first.make, nothing);
    const second = source();
    await holds.open('a', 'alice', second.make, nothing);
    second.write('bb');
    await flush();
    first.end();
    await firstPage.pipeTo(new WritableStream());
    await flush();
    expect(holds.reading('a')).toBe(true);
    expect(holds.bytes).toBe(2);
  });

  it('an answer opened again under the same id counts as the youngest: the older one goes first past a bound', async () => {
    const holds = new Holds(memoryStreams(), { ...BOUNDS, maxBytes: 6 });
    await holds.open('a', 'alice', source().make, nothing);
    const b = source();
    await holds.open('b', 'bob', b.make, nothing);
    const again = source();
    await holds.open('a', 'alice', again.make, nothing);
    b.write('bbb');
    again.write('aaa');
    await flush();
    again.write('a');
    await flush();
    expect(await holds.resume('b')).toBeUndefined();
    expect(await holds.resume('a')).toBeDefined();
    expect(holds.bytes).toBe(4);
  });

  it('a page that leaves a held answer does not stop its reading: a resume reads it to its end', async () => {
    const holds = new Holds(memoryStreams(), BOUNDS);
    const src = source();
    const page = await holds.open('a', 'alice', src.make, nothing);
    src.write('one ');
    await flush();
    await page.cancel();
    const follower = (await holds.resume('a')) as ReadableStream<string>;
    src.write('two');
    src.end();
    let text = '';
    for await (const chunk of follower) text += chunk;
    expect(text).toBe('one two');
    expect(src.cancelled()).toBe(0);
  });

  it('resume of an answer not held answers what the engine does', async () => {
    const holds = new Holds(memoryStreams(), BOUNDS);
    expect(await holds.resume('nothing')).toBeUndefined();
    const ended: RouteStreams = {
      createNewResumableStream: async () => null,
      resumeExistingStream: async () => null,
    };
    expect(await new Holds(ended, BOUNDS).resume('a')).toBeNull();
  });
});

describe('Holds: the byte bounds release the oldest hold nobody reads first', () => {
  it('at exactly maxBytes nothing is released; one byte past, the oldest is, with the released chunk', async () => {
    const holds = new Holds(memoryStreams(), { ...BOUNDS, maxBytes: 8 });
    const old = source();
    await holds.open('old', 'alice', old.make, nothing);
    const young = source();
    await holds.open('young', 'bob', young.make, nothing);
    old.write('aaaa');
    await flush();
    const follower = tap((await holds.resume('old')) as ReadableStream<string>);
    young.write('bbbb');
    await flush();
    expect(holds.bytes).toBe(8);
    expect(await follower.now()).toEqual({ text: 'aaaa', done: false });
    young.write('c');
    await flush();
    expect(await follower.now()).toEqual({ text: `aaaa${RELEASED}`, done: true });
    expect(holds.bytes).toBe(5);
    // Released, it stays reading for its page; a resume finds nothing held.
    expect(holds.reading('old')).toBe(true);
    expect(await holds.resume('old')).toBeUndefined();
  });

  it('a page that left and a follower: the hold nobody follows goes first, though younger', async () => {
    const holds = new Holds(memoryStreams(), { ...BOUNDS, maxBytes: 8 });
    const followed = source();
    const followedPage = await holds.open('followed', 'alice', followed.make, nothing);
    const alone = source();
    const alonePage = await holds.open('alone', 'alice', alone.make, nothing);
    const third = source();
    await holds.open('third', 'bob', third.make, nothing);
    followed.write('aaa');
    alone.write('bbb');
    await flush();
    const follower = await holds.resume('followed');
    await followedPage.cancel();
    await alonePage.cancel();
    third.write('ccc');
    await flush();
    expect(await holds.resume('alone')).toBeUndefined();
    expect(alone.cancelled()).toBe(1);
    expect(await holds.resume('followed')).toBeDefined();
    expect(followed.cancelled()).toBe(0);
    expect(holds.bytes).toBe(6);
    await follower?.cancel();
  });

  it('a follower that left no longer keeps its hold: the oldest unread goes first again', async () => {
    const holds = new Holds(memoryStreams(), { ...BOUNDS, maxBytes: 8 });
    const first = source();
    const firstPage = await holds.open('first', 'alice', first.make, nothing);
    const second = source();
    const secondPage = await holds.open('second', 'alice', second.make, nothing);
    const third = source();
    await holds.open('third', 'bob', third.make, nothing);
    first.write('aaa');
    second.write('bbb');
    await flush();
    const follower = (await holds.resume('first')) as ReadableStream<string>;
    await follower.cancel();
    await firstPage.cancel();
    await secondPage.cancel();
    third.write('ccc');
    await flush();
    expect(await holds.resume('first')).toBeUndefined();
    expect(await holds.resume('second')).toBeDefined();
    expect(first.cancelled()).toBe(1);
    expect(second.cancelled()).toBe(0);
  });

  it('with every hold read, the oldest goes first, and its page reads on (its reading is not stopped)', async () => {
    const holds = new Holds(memoryStreams(), { ...BOUNDS, maxBytes: 8 });
    const first = source();
    const firstPage = tap(await holds.open('first', 'alice', first.make, nothing));
    const second = source();
    await holds.open('second', 'alice', second.make, nothing);
    first.write('aaaa');
    second.write('bbbbb');
    await flush();
    expect(await holds.resume('first')).toBeUndefined();
    expect(await holds.resume('second')).toBeDefined();
    expect(first.cancelled()).toBe(0);
    first.write('more');
    await flush();
    expect(await firstPage.now()).toEqual({ text: 'aaaamore', done: false });
    // A released hold's later chunks are not counted.
    expect(holds.bytes).toBe(5);
  });

  it('a hold released, then ended, leaves the bytes of the others counted', async () => {
    const holds = new Holds(memoryStreams(), { ...BOUNDS, maxBytes: 8 });
    const first = source();
    const firstPage = await holds.open('first', 'alice', first.make, nothing);
    const second = source();
    await holds.open('second', 'bob', second.make, nothing);
    first.write('aaaa');
    second.write('bbbbb');
    await flush();
    expect(holds.bytes).toBe(5);
    first.end();
    await firstPage.pipeTo(new WritableStream());
    await flush();
    expect(holds.bytes).toBe(5);
  });

  it('one release that brings the caller under its share is enough: its newer holds stay', async () => {
    const holds = new Holds(memoryStreams(), { ...BOUNDS, callerBytes: 9 });
    const sources = [source(), source(), source()];
    for (const [index, src] of sources.entries()) await holds.open(`a${index}`, 'alice', src.make, nothing);
    const other = source();
    await holds.open('bob', 'bob', other.make, nothing);
    other.write('bbbbbbbb');
    await flush();
    expect(holds.bytes).toBe(8);
    sources[0]?.write('aaa');
    sources[1]?.write('aaa');
    sources[2]?.write('aaa');
    await flush();
    // Exactly at the share: nothing released.
    expect(holds.bytes).toBe(17);
    sources[2]?.write('a');
    await flush();
    expect(await holds.resume('a0')).toBeUndefined();
    expect(await holds.resume('a1')).toBeDefined();
    expect(await holds.resume('a2')).toBeDefined();
    expect(await holds.resume('bob')).toBeDefined();
    expect(holds.bytes).toBe(15);
  });

  it('past the total, releases go on until under it, the oldest first', async () => {
    const holds = new Holds(memoryStreams(), { ...BOUNDS, maxBytes: 10 });
    const sources = [source(), source(), source()];
    for (const [index, src] of sources.entries())
      await holds.open(`h${index}`, `caller${index}`, src.make, nothing);
    sources[0]?.write('aaaa');
    sources[1]?.write('bbbb');
    await flush();
    sources[2]?.write('ccccccccc');
    await flush();
    expect(await holds.resume('h0')).toBeUndefined();
    expect(await holds.resume('h1')).toBeUndefined();
    expect(await holds.resume('h2')).toBeDefined();
    expect(holds.bytes).toBe(9);
  });

  it('a single hold past the total is released itself, and its page reads on', async () => {
    const holds = new Holds(memoryStreams(), { ...BOUNDS, maxBytes: 3 });
    const src = source();
    const page = tap(await holds.open('a', 'alice', src.make, nothing));
    src.write('abcd');
    await flush();
    expect(holds.bytes).toBe(0);
    expect(await holds.resume('a')).toBeUndefined();
    src.write('e');
    src.end();
    expect(await page.now()).toEqual({ text: 'abcde', done: true });
  });
});
