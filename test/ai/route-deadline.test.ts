import { afterEach, describe, expect, it, vi } from 'vitest';
import { createChatRoute, memoryStreams, type RouteStreams } from '../../src/ai/index.js';
import { mockClient } from '../support/mock-client.js';
import {
  gatedClock,
  openingOnTwo,
  page,
  sharedRecords,
  stopRequest,
  turnsPass,
  until,
} from './route-support.js';

const _API = 'http://app.test/api/chat';
const HANG = '[[mock:hang]] wait';

/**
 * Two processes sharing records and live answers; the first reads a turn that hangs, and the stop's deadline
 * (`AbortSignal.timeout`) is `deadline`, which the test aborts: no test waits the real 10 s.
 */
async function stopElsewhere(deadline: AbortSignal, cancelled: Promise<unknown>) {
  const gate = gatedClock();
  const { mock, client } = mockClient({ clock: gate.clock });
  const { id } = await client.chats.create({});
  const records = sharedRecords();
  const streams = memoryStreams();
  const one = createChatRoute({ client, authorize: 'every-chat-to-every-caller', records, streams });
  const two = createChatRoute({ client, authorize: 'every-chat-to-every-caller', records, streams });
  const before = page(id, one.handle);
  void before.chat.sendMessage({ text: HANG }).catch(() => {});
  await until(
    () => mock.store.turns()[0]?.status === 'pending' && before.last()?.role === 'assistant',
    'the turn started',
  );
  vi.spyOn(AbortSignal, 'timeout').mockReturnValue(deadline);
  const cancel = vi.spyOn(client.turns, 'cancel').mockReturnValue(cancelled as never);
  const stream = vi.spyOn(client.turns, 'stream');
  let answered = false;
  const answer = two.handle(stopRequest(id)).finally(() => {
    answered = true;
  });
  return { id, before, cancel, stream, answer, answered: () => answered };
}

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('createChatRoute: a stop answers by its deadline', () => {
  it('4.6 a stop whose turn never ends answers at the deadline, reading the held answer until then', async () => {
    const deadline = new AbortController();
    // The cancel is delivered, but the turn goes on: the stop waits for its end.
    const delivered = Promise.resolve({ cancelled: true });
    const { before, cancel, stream, answer, answered } = await stopElsewhere(deadline.signal, delivered);
    await turnsPass(100);
    expect(answered()).toBe(false);
    deadline.abort();
    await until(answered, 'the stop answered at the deadline', 2000);
    expect(await (await answer).json()).toEqual({ cancelled: true });
    expect(cancel).toHaveBeenCalledTimes(1);
    // It waited on the answer the first process holds, without reading the turn again from the service.
    expect(stream).not.toHaveBeenCalled();
    vi.restoreAllMocks();
    await before.chat.stop();
  });

  it('4.6 a cancel that is never answered: the stop answers cancelled: false at the deadline', async () => {
    const deadline = new AbortController();
    const { before, answer, answered } = await stopElsewhere(deadline.signal, new Promise(() => {}));
    await turnsPass(100);
    expect(answered()).toBe(false);
    deadline.abort();
    await until(answered, 'the stop answered at the deadline', 2000);
    expect(await (await answer).json()).toEqual({ cancelled: false });
    vi.restoreAllMocks();
    await before.chat.stop();
  });

  it('4.6 a deadline already passed: the stop answers at once, cancelled: false', async () => {
    const { before, answer, answered } = await stopElsewhere(AbortSignal.abort(), new Promise(() => {}));
    await until(answered, 'the stop answered', 2000);
    expect(await (await answer).json()).toEqual({ cancelled: false });
    vi.restoreAllMocks();
    await before.chat.stop();
  });

  it('4.6 a turn recorded by a process that never opened it: the stop asks the service every 200 ms for 3 s, then reads it by key and cancels it', async () => {
    // The first process wrote the turn's record, and its open never reaches the service (it died there).
    const { mock, client, open, id, two } = await openingOnTwo();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const start = Date.now();
    const asked: number[] = [];
    const cancel = client.turns.cancel.bind(client.turns);
    vi.spyOn(client.turns, 'cancel').mockImplementation((chatId, options) => {
      asked.push(Date.now() - start);
      return cancel(chatId, options);
    });
    let answered = false;
    const answer = two.handle(stopRequest(id)).finally(() => {
      answered = true;
    });
    for (let step = 0; step < 16; step++) {
      await until(() => asked.length > step, `cancel ${step + 1} asked`);
      if (step < 15) await vi.advanceTimersByTimeAsync(200);
    }
    // No time passes after the 3 s: the stop answers without asking again.
    await until(() => answered, 'the stop answered');
    // Asked at 0, 200, ... 3,000 ms (the service has no turn running: cancelled: false each time), then once
    // more at 3,000 ms by the turn read by its key, which starts it and cancels it once it has started.
    expect(asked).toEqual([...Array.from({ length: 16 }, (_, n) => n * 200), 3000]);
    vi.useRealTimers();
    expect(await (await answer).json()).toEqual({ cancelled: true });
    expect(mock.store.turns().map((turn) => turn.status)).toEqual(['cancelled']);
    open();
  });

  it('4.6 a deadline already passed, the turn read here and its answer not held: the stop answers cancelled: false', async () => {
    const gate = gatedClock();
    const { mock, client } = mockClient({ clock: gate.clock });
    const { id } = await client.chats.create({});
    // An engine that fails (Redis away): the answer is read unheld.
    const streams: RouteStreams = {
      createNewResumableStream: async () => {
        throw new Error('away');
      },
      resumeExistingStream: async () => undefined,
    };
    const route = createChatRoute({ client, authorize: 'every-chat-to-every-caller', streams });
    const before = page(id, route.handle);
    void before.chat.sendMessage({ text: HANG }).catch(() => {});
    await until(
      () => mock.store.turns()[0]?.status === 'pending' && before.last()?.role === 'assistant',
      'the turn started',
    );
    vi.spyOn(AbortSignal, 'timeout').mockReturnValue(AbortSignal.abort());
    // Neither the cancel through the turn's stream nor the read by key ends before the deadline.
    expect(await (await route.handle(stopRequest(id))).json()).toEqual({ cancelled: false });
  });
});
