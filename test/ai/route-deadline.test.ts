import { afterEach, describe, expect, it, vi } from 'vitest';
import { createChatRoute, memoryStreams } from '../../src/ai/index.js';
import { mockClient } from '../support/mock-client.js';
import { gatedClock, page, sharedRecords, stopRequest, turnsPass, until } from './route-support.js';

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
  let answered = false;
  const answer = two.handle(stopRequest(id)).finally(() => {
    answered = true;
  });
  return { id, before, cancel, answer, answered: () => answered };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('createChatRoute: a stop answers by its deadline', () => {
  it('4.6 a stop whose turn never ends answers at the deadline, reading the held answer until then', async () => {
    const deadline = new AbortController();
    // The cancel is delivered, but the turn goes on: the stop waits for its end.
    const delivered = Promise.resolve({ cancelled: true });
    const { before, cancel, answer, answered } = await stopElsewhere(deadline.signal, delivered);
    await turnsPass(100);
    expect(answered()).toBe(false);
    deadline.abort();
    await until(answered, 'the stop answered at the deadline', 2000);
    expect(await (await answer).json()).toEqual({ cancelled: true });
    expect(cancel).toHaveBeenCalledTimes(1);
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
});
