import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Client } from '../../src/index.js';
import { CHAT, sseResponse, sseText, turnEvents } from '../support/sse.js';

/**
 * The frames between the retry loop (p-retry's `pRetry`) and `fetch`, as V8's async stack trace shows them
 * when the injected fetch is called: `sync`, the calls on the stack (ky's and the SDK's `fetch` wrapper),
 * and `awaiting`, the async functions each waiting on the next one's promise (below the microtask queue's
 * frame), each one more promise and one more microtask hop on the way to fetch and back. The stack must
 * reach the loop: an await chain broken by a `.then` would hide frames, not remove them.
 */
function framesAboveLoop(stack: string): { sync: string[]; awaiting: string[] } {
  const lines = stack
    .split('\n')
    .slice(2) // "Error" and the fetch's own frame
    .map((line) => line.trim());
  const loop = lines.findIndex((line) => /\bpRetry\b.*p-retry/.test(line));
  if (loop < 0) throw new Error(`the stack does not reach the retry loop:\n${stack}`);
  const tick = lines.findIndex((line) => line.includes('processTicksAndRejections'));
  return { sync: lines.slice(0, tick), awaiting: lines.slice(tick + 1, loop) };
}

/** The frames of the first `fetch` call of `run`. */
async function framesOf(run: (client: Client) => Promise<unknown>, reply: () => Response) {
  let stack: string | undefined;
  const client = new Client({
    baseUrl: 'https://api.test',
    token: 't',
    fetch: async () => {
      stack ??= new Error().stack ?? '';
      return reply();
    },
  });
  await run(client).catch(() => {});
  // The second call: ky is loaded, the client's instance built (the first call also imports ky).
  stack = undefined;
  await run(client).catch(() => {});
  return framesAboveLoop(stack ?? '');
}

const chat = () =>
  Response.json({
    status: 'success',
    message: 'OK',
    message_code: 'api_v1_ok',
    data: { id: CHAT },
    meta: { request_id: 'r' },
  });

let limit: number;
beforeEach(() => {
  limit = Error.stackTraceLimit;
  Error.stackTraceLimit = Number.POSITIVE_INFINITY;
});
afterEach(() => {
  Error.stackTraceLimit = limit;
});

/** Prints the frames (`vitest run` shows them) and returns their counts. */
function counted(name: string, frames: { sync: string[]; awaiting: string[] }) {
  const { sync, awaiting } = frames;
  console.info(
    `${name}: ${sync.length + awaiting.length} frames, ${sync.length} on the stack, ${awaiting.length} awaiting\n  ${[...sync, '--', ...awaiting].join('\n  ')}`,
  );
  return { all: sync.length + awaiting.length, awaiting: awaiting.length };
}

// ky's own frames are 5 of them (4 on the stack, its request's promise awaiting): the SDK's are the
// `fetch` it hands ky (`send-once.ts` `unpacked`) and `Transport.#exchange`, which awaits ky's promise.
// Before ky moved behind `send-once.ts` there were 9, 4 awaiting: `#send`, `#attempt` and the retry
// loop's `once` waited on each other. The SDK's two are the least it can have: ky calls its `fetch` with a
// `Request`, which `unpacked` turns into a URL and init (the body as text, the call's own signal), and an
// attempt must wait for the response to read and check it; a `.then` there would only hide that frame.
describe('the path from the retry loop to fetch', () => {
  it('chats.get: at most 7 frames, 2 of them awaiting', async () => {
    const frames = counted('chats.get', await framesOf((c) => c.chats.get(CHAT), chat));
    expect(frames.all).toBeLessThanOrEqual(7);
    expect(frames.awaiting).toBeLessThanOrEqual(2);
  });

  it('turns.stream open: at most 7 frames, 2 of them awaiting', async () => {
    const open = async (c: Client) => {
      await c.turns.stream(CHAT, { content: 'Hi' }).finalTurn();
    };
    const frames = counted(
      'turns.stream',
      await framesOf(open, () => sseResponse(sseText(turnEvents(['Hi'])))),
    );
    expect(frames.all).toBeLessThanOrEqual(7);
    expect(frames.awaiting).toBeLessThanOrEqual(2);
  });
});
