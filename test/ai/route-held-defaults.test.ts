import { describe, expect, it, vi } from 'vitest';
import { createChatRoute } from '../../src/ai/index.js';
import { mockClient } from '../support/mock-client.js';
import { gatedClock, listedStreams, page, turnsPass, until } from './route-support.js';

// The route's byte bounds of held answers default to the constants `route-holds.ts` exports (128 MiB, 32 MiB):
// made small here, a default shows at once, where the real ones would take that much of answers.
vi.mock('../../src/ai/route-holds.js', async (original) => ({
  ...(await original<typeof import('../../src/ai/route-holds.js')>()),
  MAX_HELD_BYTES: 64,
  MAX_CALLER_BYTES: 64,
}));

const HANG = '[[mock:hang]] wait';
const LARGE = 1024 * 1024;

/** Whether the answer of a turn that never ends is still held for resumes, under the bounds `options` sets. */
async function stillHeld(options: { maxHeldBytes?: number; maxCallerBytes?: number }) {
  const gate = gatedClock();
  const { mock, client } = mockClient({ clock: gate.clock });
  const { id } = await client.chats.create({});
  const { streams, held } = listedStreams();
  const route = createChatRoute({ client, authorize: 'every-chat-to-every-caller', streams, ...options });
  const { chat, last } = page(id, route.handle);
  void chat.sendMessage({ text: HANG }).catch(() => {});
  await until(
    () => mock.store.turns()[0]?.status === 'pending' && last()?.role === 'assistant',
    'the turn started',
  );
  await turnsPass(20);
  const copy = await streams.resumeExistingStream(held[0] as string);
  await copy?.cancel();
  await chat.stop();
  return copy !== undefined;
}

describe('createChatRoute: the default byte bounds of held answers', () => {
  it('held within bounds set above the answer', async () => {
    expect(await stillHeld({ maxHeldBytes: LARGE, maxCallerBytes: LARGE })).toBe(true);
  });

  it('maxHeldBytes defaults to MAX_HELD_BYTES: past it, the answer is released', async () => {
    expect(await stillHeld({ maxCallerBytes: LARGE })).toBe(false);
  });

  it("maxCallerBytes defaults to MAX_CALLER_BYTES: past the caller's share, the answer is released", async () => {
    expect(await stillHeld({ maxHeldBytes: LARGE })).toBe(false);
  });
});
