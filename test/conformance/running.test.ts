import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformance } from '../../src/conformance/index.js';
import { type FakeModel, type MockServer, startMockServer } from '../../src/mock/index.js';

// A model as real ones are (the proxy of fault-proxy.ts reads answers whole, so faults here rewrite the
// kit's fetch instead): a turn runs for a while. Here it runs until the kit has done what it does
// while the turn runs (a cancel, a second send) and the service has answered that; or, when the kit sends
// nothing during the turn, until the kit has read message.start. Ordered by the event loop, not by a clock.
const gates = new Map<string, { open: () => void; opened: Promise<void> }>();
function gate(chatId: string) {
  let entry = gates.get(chatId);
  if (!entry) {
    let open = () => {};
    const opened = new Promise<void>((resolve) => {
      open = resolve;
    });
    entry = { open, opened };
    gates.set(chatId, entry);
  }
  return entry;
}

const running: FakeModel = async function* ({ chat_id, channel, signal }) {
  yield { type: 'text', text: 'A first part' };
  if (channel === 'stream') {
    await Promise.race([
      gate(chat_id).opened,
      new Promise((resolve) => signal.addEventListener('abort', resolve)),
    ]);
    if (signal.aborted) return;
  }
  yield { type: 'text', text: ', then the rest.' };
};

const chatOf = (url: string) => /\/chats\/([0-9a-f-]{36})\//.exec(url)?.[1];

/** The kit's fetch, opening a turn's gate once what the kit sent during the turn has been answered. */
const gatedFetch: typeof fetch = async (input, init) => {
  const url = String(input instanceof Request ? input.url : input);
  const chatId = chatOf(url);
  const streaming = url.endsWith('/messages/stream');
  const response = await fetch(input, init);
  if (!chatId) return response;
  if (!streaming) {
    // Sent during the turn: the turn goes on until this was answered.
    gate(chatId).open();
    const text = await response.text();
    return new Response(rewrite(text, url), response);
  }
  if (!response.body) return response;
  if (!response.headers.get('content-type')?.startsWith('text/event-stream')) {
    // A streamed send refused before it started (7.4).
    return new Response(rewrite(await response.text(), url), response);
  }
  let first = true;
  const body = response.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        controller.enqueue(chunk);
        if (!first) return;
        first = false;
        // After the kit has read this chunk (microtasks) and sent what it sends during the turn (a request
        // started inside its event handler reaches this fetch synchronously), let the turn end unless it did.
        setImmediate(() => {
          if (!pendingDuring.has(chatId)) gate(chatId).open();
        });
      },
    }),
  );
  return new Response(body, response);
};
const pendingDuring = new Set<string>();
/** What the service under test changes in its JSON answers to `url` (nothing, for the conforming one). */
let rewrite = (text: string, _url: string) => text;
const trackingFetch: typeof fetch = (input, init) => {
  const url = String(input instanceof Request ? input.url : input);
  const chatId = chatOf(url);
  if (chatId && !url.endsWith('/messages/stream') && gates.has(chatId)) pendingDuring.add(chatId);
  return gatedFetch(input, init);
};

const tokens = { main: 'mock-token' };
let mock: MockServer;

beforeAll(async () => {
  mock = await startMockServer({ port: 0, tokens: [{ token: 'mock-token' }], model: running });
});

afterAll(() => mock?.close());

async function run(change: (text: string, url: string) => string = (text) => text) {
  rewrite = change;
  return await runConformance({ url: mock.url, tokens, only: ['4.6', '3.4'], fetch: trackingFetch });
}

describe('the checks a running turn allows, against a model whose turn runs a while', () => {
  it('4.6, 3.2, 3.4, 7.4: a cancel after message.start cuts the turn (saved and replayed cancelled); a second send, synchronous or streamed, is chat_busy', async () => {
    const report = await run();
    expect(report.results.filter((result) => result.outcome !== 'pass')).toEqual([]);
    expect(report.coverage.failures).toEqual(
      expect.arrayContaining(['turns.send 409 api_v1_chat_busy', 'turns.stream 409 api_v1_chat_busy']),
    );
    expect(report.results.map((result) => result.title)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^a cancel sent once message.start/),
        expect.stringMatching(/^a second turn sent/),
      ]),
    );
  });

  it('3.4: a second send answered 409 with another code fails, naming the request', async () => {
    const report = await run((text) => text.replace('"api_v1_chat_busy"', '"api_v1_conflict"'));
    expect(report.results.filter((result) => result.outcome === 'fail')).toEqual([
      expect.objectContaining({
        section: '3.4',
        got: '409 api_v1_conflict',
        request: expect.objectContaining({
          call: expect.stringMatching(/^POST \/api\/v1\/chats\/[0-9a-f-]{36}\/messages$/),
        }),
      }),
    ]);
  });

  it('7.4: a streamed send to a chat running a turn answered 409 with another code fails 3.4 alone, naming that request', async () => {
    const report = await run((text, url) =>
      url.endsWith('/messages/stream') ? text.replace('"api_v1_chat_busy"', '"api_v1_conflict"') : text,
    );
    expect(report.results.filter((result) => result.outcome === 'fail')).toEqual([
      expect.objectContaining({
        section: '3.4',
        got: '409 api_v1_conflict',
        request: expect.objectContaining({
          call: expect.stringMatching(/^POST \/api\/v1\/chats\/[0-9a-f-]{36}\/messages\/stream$/),
        }),
      }),
    ]);
  });
});
