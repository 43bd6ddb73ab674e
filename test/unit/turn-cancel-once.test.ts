import { describe, expect, it } from 'vitest';
import { ApiError, type CancelResult, type TurnStream } from '../../src/index.js';
import { fakeClient } from '../support/fake-client.js';
import { fail, ok } from '../support/fake-fetch.js';
import { CHAT, sseResponse, sseText, turnEvents } from '../support/sse.js';

// Issue 29, item 4: a cancel without `action_id` ends whatever turn the chat runs (4.6). Three concurrent
// `cancel()` after `message.start` sent three, and the later ones could reach the chat's next turn.

/** A reply the test settles when it wants: the cancel stays in flight until then. */
function deferred() {
  let settle!: (response: Response) => void;
  const promise = new Promise<Response>((resolve) => {
    settle = resolve;
  });
  return { promise, settle };
}

/**
 * A fake fetch whose stream starts the turn and then stays open, whose listing shows the turn running,
 * and whose cancels each wait for a reply the test gives; it counts the requests of each kind.
 */
function service() {
  const counts = { stream: 0, cancel: 0, listing: 0 };
  const cancels: ReturnType<typeof deferred>[] = [];
  const fetch = async (input: Request | URL | string, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const { pathname } = new URL(request.url);
    if (pathname.endsWith('/actions/cancel')) {
      counts.cancel++;
      const reply = deferred();
      cancels.push(reply);
      return reply.promise;
    }
    if (pathname.endsWith('/messages/stream')) {
      counts.stream++;
      return sseResponse(sseText(turnEvents(['a']).slice(0, 2)), { end: 'stall' });
    }
    // The listing does not show the turn yet: it may run, so it is cancelled.
    counts.listing++;
    return ok([], { page: 1, size: 200, total: 0 });
  };
  const client = fakeClient(fetch, { maxRetries: 0 });
  return { client, counts, cancels };
}

/** Reads `stream` until its turn started (`message.start`). */
async function started(stream: TurnStream): Promise<AsyncIterator<unknown>> {
  const iterator = stream[Symbol.asyncIterator]();
  for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
    if ((next.value as { type: string }).type === 'start') return iterator;
  }
  throw new Error('the turn never started');
}

/** A turn streamed from `service()` and read until it started; its iterator, to read on. */
async function startedTurn() {
  const { client, counts, cancels } = service();
  const stream = client.turns.stream(CHAT, { content: 'x' });
  const iterator = await started(stream);
  return { stream, iterator, counts, cancels };
}

/** Lets pending promise callbacks run (no timer: the fake fetch answers only when told). */
const settled = () => new Promise((resolve) => setImmediate(resolve));

const CANCELLED: CancelResult = { chat_id: CHAT, cancelled: true };

describe('concurrent cancel() calls share one request', () => {
  it('4.6 three concurrent cancel() after message.start send one chat-wide cancel; all three get its outcome', async () => {
    const { stream, counts, cancels } = await startedTurn();
    const calls = [stream.cancel(), stream.cancel(), stream.cancel()];
    await settled();
    expect(counts.cancel).toBe(1);
    cancels[0]!.settle(ok(CANCELLED));
    const results = await Promise.all(calls);
    expect(results).toEqual([CANCELLED, CANCELLED, CANCELLED]);
    expect(counts.cancel).toBe(1);
    stream.abort();
  });

  it('4.6 a cancel() after the first was answered, before the stream read message.cancelled, sends nothing', async () => {
    const { stream, counts, cancels } = await startedTurn();
    const first = stream.cancel();
    await settled();
    cancels[0]!.settle(ok(CANCELLED));
    expect(await first).toEqual(CANCELLED);
    expect(await stream.cancel()).toEqual(CANCELLED);
    expect(counts.cancel).toBe(1);
    stream.abort();
  });

  it('4.6 a failed cancel is shared by the calls that waited on it; the next cancel() sends again', async () => {
    const { stream, counts, cancels } = await startedTurn();
    const calls = [stream.cancel(), stream.cancel()];
    await settled();
    cancels[0]!.settle(fail(403, 'api_token_scope_not_allowed', { required_scopes: ['chat:write'] }));
    const errors = await Promise.all(
      calls.map((call) =>
        call.then(
          () => undefined,
          (error: unknown) => error,
        ),
      ),
    );
    expect(errors[0]).toBeInstanceOf(ApiError);
    expect(errors[1]).toBe(errors[0]);
    expect(counts.cancel).toBe(1);

    const again = stream.cancel();
    await settled();
    expect(counts.cancel).toBe(2);
    cancels[1]!.settle(ok(CANCELLED));
    expect(await again).toEqual(CANCELLED);
    stream.abort();
  });

  it('4.6 cancel() from both branches of a tee() and from cancelOnAbort send one cancel', async () => {
    const { client, counts, cancels } = service();
    const controller = new AbortController();
    const stream = client.turns.stream(
      CHAT,
      { content: 'x' },
      { signal: controller.signal, cancelOnAbort: true },
    );
    const [left, right] = stream.tee();
    await Promise.all([started(left), started(right)]);
    const calls = [left.cancel(), right.cancel()];
    controller.abort();
    await settled();
    expect(counts.cancel).toBe(1);
    cancels[0]!.settle(ok(CANCELLED));
    expect(await Promise.all(calls)).toEqual([CANCELLED, CANCELLED]);
    expect(counts.cancel).toBe(1);
  });

  it('4.6 after an abort, concurrent cancel() look the turn up once and send one cancel', async () => {
    const { stream, iterator, counts, cancels } = await startedTurn();
    stream.abort();
    // Reads what was left of the batch, then the abort.
    await expect(
      (async () => {
        for (;;) await iterator.next();
      })(),
    ).rejects.toThrow(/aborted/);
    const calls = [stream.cancel(), stream.cancel(), stream.cancel()];
    for (let turn = 0; turn < 20 && counts.cancel === 0; turn++) await settled();
    expect(counts.listing).toBe(1);
    cancels[0]!.settle(ok(CANCELLED));
    expect(await Promise.all(calls)).toEqual([CANCELLED, CANCELLED, CANCELLED]);
    expect(counts).toEqual({ stream: 1, listing: 1, cancel: 1 });
  });
});
