import { describe, expect, it } from 'vitest';
import type { CancelResult } from '../../src/contract/interactions.js';
import type { RequestOptions } from '../../src/http/transport.js';
import type { TurnCall } from '../../src/turn/call.js';
import { turnCancels } from '../../src/turn/cancel.js';

// The state machine of a turn's cancels (`src/turn/cancel.ts`), driven directly: one request shared by
// every cancel of the call, sent again only after a failure; the look-up before a late cancel.

const CHAT = 'chat-1';
const CANCELLED: CancelResult = { chat_id: CHAT, cancelled: true };
const NOT_CANCELLED: CancelResult = { chat_id: CHAT, cancelled: false };

/** Endpoints that record each request; each cancel waits for the answer the test gives. */
function endpoints(status: string | undefined = 'pending') {
  const sent: string[] = [];
  const lookups: { chatId: string; messageId: number; options: RequestOptions }[] = [];
  const replies: { resolve: (result: CancelResult) => void; reject: (error: Error) => void }[] = [];
  return {
    sent,
    lookups,
    replies,
    endpoints: {
      cancel: (chatId: string) => {
        sent.push(chatId);
        return new Promise<CancelResult>((resolve, reject) => {
          replies.push({ resolve, reject });
        });
      },
      status: async (chatId: string, messageId: number, options: RequestOptions) => {
        lookups.push({ chatId, messageId, options });
        return status;
      },
    },
  };
}

const call = { chatId: CHAT } as TurnCall;
/** Lets pending promise callbacks run. */
const settled = () => new Promise((resolve) => setImmediate(resolve));

describe("a turn's cancels share one request", () => {
  it('4.6 a cancel while one is in flight, and one after it was answered, send nothing more', async () => {
    const fake = endpoints();
    const cancels = turnCancels(fake.endpoints, call, 1000);
    const first = cancels.cancel();
    const second = cancels.cancel();
    await settled();
    expect(fake.sent).toEqual([CHAT]);
    fake.replies[0]!.resolve(CANCELLED);
    expect(await first).toEqual(CANCELLED);
    expect(await second).toEqual(CANCELLED);
    expect(await cancels.cancel()).toEqual(CANCELLED);
    expect(await cancels.cancelIfRunning(7)).toEqual(CANCELLED);
    expect(fake.sent).toEqual([CHAT]);
    expect(fake.lookups).toEqual([]);
  });

  it('4.6 after a failed cancel, the next call sends again', async () => {
    const fake = endpoints();
    const cancels = turnCancels(fake.endpoints, call, 1000);
    const first = cancels.cancel();
    const alongside = cancels.cancel();
    await settled();
    fake.replies[0]!.reject(new Error('lost'));
    await expect(first).rejects.toThrow('lost');
    await expect(alongside).rejects.toThrow('lost');
    const again = cancels.cancel();
    await settled();
    expect(fake.sent).toEqual([CHAT, CHAT]);
    fake.replies[1]!.resolve(CANCELLED);
    expect(await again).toEqual(CANCELLED);
  });

  for (const status of ['completed', 'cancelled', 'error']) {
    it(`3.2 cancelIfRunning sends no cancel when the turn's status is ${status}`, async () => {
      const fake = endpoints(status);
      const cancels = turnCancels(fake.endpoints, call, 1234);
      expect(await cancels.cancelIfRunning(7)).toEqual(NOT_CANCELLED);
      expect(fake.sent).toEqual([]);
      expect(fake.lookups).toEqual([{ chatId: CHAT, messageId: 7, options: { timeout: 1234 } }]);
      // The answer is shared too: a later cancel sends nothing.
      expect(await cancels.cancel()).toEqual(NOT_CANCELLED);
      expect(fake.sent).toEqual([]);
    });
  }

  for (const status of ['pending', undefined, 'paused_by_a_newer_service']) {
    it(`3.2 cancelIfRunning cancels a turn whose status is ${String(status)} (it may run)`, async () => {
      const fake = endpoints(status);
      const cancels = turnCancels(fake.endpoints, call, undefined);
      const result = cancels.cancelIfRunning(7);
      await settled();
      expect(fake.sent).toEqual([CHAT]);
      expect(fake.lookups).toEqual([{ chatId: CHAT, messageId: 7, options: { timeout: undefined } }]);
      fake.replies[0]!.resolve(CANCELLED);
      expect(await result).toEqual(CANCELLED);
    });
  }
});
