import { describe, expect, it } from 'vitest';
import { RouteCapacityError } from '../../src/ai/index.js';
import { Holds } from '../../src/ai/route-holds.js';
import { memoryStreams, type RouteStreams } from '../../src/ai/route-streams.js';

const BOUNDS = { maxStreams: 10, maxBytes: 1000, callerStreams: 5, callerBytes: 1000 };

/** A source the test writes to. */
function source() {
  let controller!: ReadableStreamDefaultController<string>;
  let cancelled = false;
  const stream = new ReadableStream<string>({
    start(own) {
      controller = own;
    },
    cancel() {
      cancelled = true;
    },
  });
  return {
    stream,
    write: (chunk: string) => controller.enqueue(chunk),
    end: () => controller.close(),
    cancelled: () => cancelled,
  };
}

/** Lets pending work run for a count of macrotasks (not a duration). */
async function settle(count = 20): Promise<void> {
  for (let turn = 0; turn < count; turn++) await new Promise((resolve) => setImmediate(resolve));
}

/** Reads what `stream` has now, without waiting for its end. */
async function readNow(stream: ReadableStream<string>): Promise<{ text: string; done: boolean }> {
  const reader = stream.getReader();
  let text = '';
  let done = false;
  for (;;) {
    const next = await Promise.race([reader.read(), settle(5).then(() => undefined)]);
    if (!next) break;
    if (next.done) {
      done = true;
      break;
    }
    text += next.value;
  }
  reader.releaseLock();
  return { text, done };
}

const nothing = async () => {};

/** The whole text of `stream`. */
async function textOf(stream: ReadableStream<string>): Promise<string> {
  let text = '';
  for await (const chunk of stream) text += chunk;
  return text;
}

describe('Holds: the answers a route process holds, bounded in count and bytes', () => {
  it('a caller past its count answers RouteCapacityError (caller), another caller is admitted; the route past its own answers (route)', async () => {
    const holds = new Holds(memoryStreams(), { ...BOUNDS, callerStreams: 1, maxStreams: 2 });
    await holds.open('a', 'alice', () => source().stream, nothing);
    const refused = (() => {
      try {
        holds.admit('alice');
      } catch (error) {
        return error;
      }
    })();
    expect(refused).toBeInstanceOf(RouteCapacityError);
    expect(refused).toMatchObject({ scope: 'caller', limit: 1 });
    holds.admit('bob');
    await holds.open('b', 'bob', () => source().stream, nothing);
    expect(() => holds.admit('carol')).toThrow(expect.objectContaining({ scope: 'route', limit: 2 }));
  });

  it('the page and a resume read the same answer; the bytes held go back to 0 at its end, after settle ran', async () => {
    const holds = new Holds(memoryStreams(), BOUNDS);
    const src = source();
    const order: string[] = [];
    const page = await holds.open(
      'a',
      'alice',
      () => src.stream,
      async () => {
        order.push('settled');
      },
    );
    src.write('one ');
    await settle();
    expect(holds.bytes).toBe(4);
    const follower = (await holds.resume('a')) as ReadableStream<string>;
    src.write('two');
    src.end();
    const [mine, theirs] = await Promise.all([textOf(page), textOf(follower)]);
    expect(mine).toBe('one two');
    expect(theirs).toBe('one two');
    expect(order).toEqual(['settled']);
    expect(holds.bytes).toBe(0);
    expect(await holds.resume('a')).toBeUndefined();
  });

  it('past maxBytes the oldest hold nobody reads is released: the engine forgets it, the newer ones stay', async () => {
    const holds = new Holds(memoryStreams(), { ...BOUNDS, maxBytes: 10 });
    const old = source();
    const oldPage = await holds.open('old', 'alice', () => old.stream, nothing);
    const read = source();
    await holds.open('read', 'alice', () => read.stream, nothing);
    const young = source();
    const youngPage = await holds.open('young', 'bob', () => young.stream, nothing);
    old.write('aaaa');
    read.write('bbbb');
    await settle();
    // The page of `old` went away (a reload): nobody reads it.
    await oldPage.cancel();
    young.write('cccc');
    await settle();
    expect(await holds.resume('old')).toBeUndefined();
    expect(await holds.resume('read')).toBeDefined();
    expect(holds.bytes).toBe(8);
    // A released hold still reads its turn for the page that reads it: only its copy was let go.
    young.write('dddddddd');
    await settle();
    expect((await readNow(youngPage)).text).toBe('ccccdddddddd');
    expect(old.cancelled()).toBe(true);
  });

  it('past maxBytes with every hold read, the oldest is released: its followers end on an error chunk, its page reads on', async () => {
    const holds = new Holds(memoryStreams(), { ...BOUNDS, maxBytes: 6 });
    const first = source();
    const firstPage = await holds.open('first', 'alice', () => first.stream, nothing);
    first.write('aaaa');
    await settle();
    const follower = (await holds.resume('first')) as ReadableStream<string>;
    const second = source();
    await holds.open('second', 'bob', () => second.stream, nothing);
    second.write('bbbb');
    await settle();
    const followed = await readNow(follower);
    expect(followed.done).toBe(true);
    expect(followed.text).toContain('maxHeldBytes');
    first.write('more');
    await settle();
    expect((await readNow(firstPage)).text).toBe('aaaamore');
    expect(holds.bytes).toBe(4);
  });

  it("past its share a caller's own oldest hold is released, never another caller's", async () => {
    const holds = new Holds(memoryStreams(), { ...BOUNDS, callerBytes: 6 });
    const other = source();
    await holds.open('other', 'bob', () => other.stream, nothing);
    other.write('bbbbb');
    const mine = source();
    await holds.open('mine', 'alice', () => mine.stream, nothing);
    const newer = source();
    await holds.open('newer', 'alice', () => newer.stream, nothing);
    mine.write('aaaa');
    await settle();
    newer.write('aaaa');
    await settle();
    expect(await holds.resume('other')).toBeDefined();
    expect(await holds.resume('mine')).toBeUndefined();
    expect(await holds.resume('newer')).toBeDefined();
    expect(holds.bytes).toBe(9);
  });

  it('an engine that fails (Redis away) leaves the answer unheld: the page reads it, a resume finds nothing', async () => {
    const failing: RouteStreams = {
      createNewResumableStream: async () => {
        throw new Error('connection lost');
      },
      resumeExistingStream: async () => undefined,
    };
    const holds = new Holds(failing, BOUNDS);
    const src = source();
    const page = await holds.open('a', 'alice', () => src.stream, nothing);
    src.write('hello');
    src.end();
    expect(await textOf(page)).toBe('hello');
    expect(holds.bytes).toBe(0);
  });

  it('a count bound of the engine refuses before the source is made (nothing is read)', async () => {
    const holds = new Holds(memoryStreams(1), BOUNDS);
    await holds.open('a', 'alice', () => source().stream, nothing);
    let made = false;
    await expect(
      holds.open(
        'b',
        'bob',
        () => {
          made = true;
          return source().stream;
        },
        nothing,
      ),
    ).rejects.toBeInstanceOf(RouteCapacityError);
    expect(made).toBe(false);
    // Refused, it holds nothing: bob is admitted as before.
    holds.admit('bob');
  });

  it('a page that goes away from an unheld answer stops its reading', async () => {
    const failing: RouteStreams = {
      createNewResumableStream: async () => {
        throw new Error('connection lost');
      },
      resumeExistingStream: async () => undefined,
    };
    const holds = new Holds(failing, BOUNDS);
    const src = source();
    const page = await holds.open('a', 'alice', () => src.stream, nothing);
    await page.cancel();
    await settle();
    expect(src.cancelled()).toBe(true);
  });

  it('a source that fails fails the page and the followers', async () => {
    const holds = new Holds(memoryStreams(), BOUNDS);
    let controller!: ReadableStreamDefaultController<string>;
    const page = await holds.open(
      'a',
      'alice',
      () =>
        new ReadableStream<string>({
          start(own) {
            controller = own;
          },
        }),
      nothing,
    );
    const follower = (await holds.resume('a')) as ReadableStream<string>;
    controller.error(new Error('broken'));
    await expect(textOf(page)).rejects.toThrow('broken');
    await expect(textOf(follower)).rejects.toThrow('broken');
    expect(holds.bytes).toBe(0);
  });
});
