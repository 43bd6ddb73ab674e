import { describe, expect, it } from 'vitest';
import { CLIENT_DEFAULTS } from '../../src/http/defaults.js';
import { MAX_TURN_BYTES } from '../../src/http/validate.js';
import { RelayedTurnStream, type StreamEvent, TurnTooLargeError, ValidationError } from '../../src/index.js';
import { fakeClient } from '../support/fake-client.js';
import { fakeFetch } from '../support/fake-fetch.js';
import { CHAT, chunkedBody, sseResponse, sseText, turnEvents } from '../support/sse.js';

// Issue 29, 3a: each event is bounded (16 MiB), and so is their sum: an endless stream of 1 MiB deltas
// reached 578 MiB of heap, then V8's string limit (a raw RangeError without the turn's key).

const MiB = 1024 * 1024;
const encoder = new TextEncoder();
const START = encoder.encode(sseText([['message.start', { chat_id: CHAT, message_id: 7, request_id: 'r' }]]));
const DELTA = encoder.encode(sseText([['message.delta', { text: 'a'.repeat(MiB), replace: false }]]));

/** A body that starts a turn, then sends 1 MiB deltas without end; `sent()` says how many bytes it gave. */
function endless() {
  let bytes = 0;
  let started = false;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = (started ? DELTA : START).slice();
      started = true;
      bytes += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
  return { body, sent: () => bytes };
}

/** A client whose every stream request gets a fresh endless body; `requests` records them all. */
function endlessClient(options: { maxTurnBytes?: number } = {}) {
  const bodies: ReturnType<typeof endless>[] = [];
  const { fetch, requests } = fakeFetch(() => {
    const source = endless();
    bodies.push(source);
    return new Response(source.body, { headers: { 'content-type': 'text/event-stream' } });
  });
  return {
    client: fakeClient(fetch, options),
    requests,
    sent: () => bodies.reduce((n, b) => n + b.sent(), 0),
  };
}

async function failure(read: Promise<unknown>): Promise<unknown> {
  return read.then(
    () => expect.unreachable('the stream ended without an error'),
    (error: unknown) => error,
  );
}

describe('a streamed turn has a total-size bound (maxTurnBytes)', () => {
  it("the issue's case: endless 1 MiB deltas end with TurnTooLargeError at 64 MiB, long before 400 MiB, with the key, chat and message id", async () => {
    const { client, requests, sent } = endlessClient();
    const stream = client.turns.stream(CHAT, { content: 'x' });
    const error = await failure(stream.finalTurn());

    expect(error).toBeInstanceOf(TurnTooLargeError);
    const tooLarge = error as TurnTooLargeError;
    expect(tooLarge.limit).toBe(CLIENT_DEFAULTS.maxTurnBytes);
    expect(CLIENT_DEFAULTS.maxTurnBytes).toBe(64 * MiB);
    expect(tooLarge.message).toContain(`maxTurnBytes (${64 * MiB} bytes)`);
    expect(tooLarge).toMatchObject({ idempotencyKey: stream.idempotencyKey, chatId: CHAT, messageId: 7 });
    // Read up to the bound, then stopped: the chunk that crossed it, and at most the one the body queued.
    expect(sent()).toBeGreaterThan(64 * MiB);
    expect(sent()).toBeLessThanOrEqual(64 * MiB + 2 * DELTA.byteLength);
    expect(sent()).toBeLessThan(400 * MiB);
    expect(stream.text.length).toBeLessThan(64 * MiB);
    // Not a broken connection: never re-opened (a replay would bring the same bytes), and not cancelled.
    expect(requests.map((r) => r.url)).toEqual([`https://api.test/api/v1/chats/${CHAT}/messages/stream`]);
  });

  it("the client's maxTurnBytes bounds its streams, and a call's own overrides it", async () => {
    const { client, sent } = endlessClient({ maxTurnBytes: 2 * MiB });
    const bounded = await failure(client.turns.stream(CHAT, { content: 'x' }).done());
    expect(bounded).toMatchObject({ name: 'TurnTooLargeError', limit: 2 * MiB });
    expect(sent()).toBeLessThanOrEqual(2 * MiB + 2 * DELTA.byteLength);

    const before = sent();
    const larger = await failure(
      client.turns.stream(CHAT, { content: 'x' }, { maxTurnBytes: 5 * MiB }).done(),
    );
    expect(larger).toMatchObject({ name: 'TurnTooLargeError', limit: 5 * MiB });
    expect(sent() - before).toBeGreaterThan(5 * MiB);
    expect(sent() - before).toBeLessThanOrEqual(5 * MiB + 2 * DELTA.byteLength);
  });

  it('a turn of exactly maxTurnBytes is read whole; one byte more is too large', async () => {
    const text = sseText(turnEvents(['Hello', ' world']));
    const size = encoder.encode(text).byteLength;
    const { fetch } = fakeFetch(() => sseResponse(text, { chunks: [7] }));
    const client = fakeClient(fetch);
    expect(await client.turns.stream(CHAT, { content: 'x' }, { maxTurnBytes: size }).finalText()).toBe(
      'Hello world',
    );
    const error = await failure(
      client.turns.stream(CHAT, { content: 'x' }, { maxTurnBytes: size - 1 }).done(),
    );
    expect(error).toMatchObject({ name: 'TurnTooLargeError', limit: size - 1, chatId: CHAT, messageId: 7 });
  });

  it('4.4 a re-opened stream replays the turn from its start: each connection is counted from zero, a replay not twice', async () => {
    const deltas = Array.from({ length: 8 }, (_, i) => `${i}`.repeat(1000));
    const whole = sseText(turnEvents(deltas));
    const size = encoder.encode(whole).byteLength;
    // The first connection breaks three quarters in; the second re-delivers the whole turn.
    const broken = whole.slice(0, Math.floor(whole.length * 0.75));
    const { fetch, requests } = fakeFetch(sseResponse(broken, { end: 'error' }), sseResponse(whole));
    const client = fakeClient(fetch, { retryDelay: { min: 0, max: 0 } });
    const stream = client.turns.stream(CHAT, { content: 'x' }, { maxTurnBytes: size });
    const types: string[] = [];
    stream.on('event', (event) => types.push(event.type));
    expect(await stream.finalText()).toBe(deltas.join(''));
    expect(types).toContain('resumed');
    expect(requests).toHaveLength(2);
  });

  it('out of range, maxTurnBytes is a ValidationError: from new Client(), and at the first read of a stream or a relay, nothing sent', async () => {
    const { fetch, requests } = fakeFetch(sseResponse(sseText(turnEvents(['a']))));
    const client = fakeClient(fetch);
    for (const value of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, MAX_TURN_BYTES + 1, '100']) {
      const bad = { maxTurnBytes: value as number };
      expect(() => fakeClient(fetch, bad), String(value)).toThrow(ValidationError);
      expect(() => client.withOptions(bad)).toThrow(ValidationError);
      const error = await failure(client.turns.stream(CHAT, { content: 'x' }, bad).done());
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).field).toBe('maxTurnBytes');
      expect((error as ValidationError).message).toBe(
        'maxTurnBytes: must be an integer number of bytes from 1 to 536870912',
      );
      const relay = RelayedTurnStream.fromReadableStream(new ReadableStream<Uint8Array>(), bad);
      expect(await failure(relay.done())).toBeInstanceOf(ValidationError);
    }
    expect(requests).toHaveLength(0);
  });

  it('the largest maxTurnBytes is 2^29, below which no text outgrows a JavaScript string; it is accepted', async () => {
    expect(MAX_TURN_BYTES).toBe(2 ** 29);
    const { fetch } = fakeFetch(() => sseResponse(sseText(turnEvents(['a']))));
    const client = fakeClient(fetch, { maxTurnBytes: MAX_TURN_BYTES });
    expect(await client.turns.stream(CHAT, { content: 'x' }).finalText()).toBe('a');
    const relay = RelayedTurnStream.fromReadableStream(chunkedBody(sseText(turnEvents(['b']))), {
      maxTurnBytes: MAX_TURN_BYTES,
    });
    expect(await relay.finalText()).toBe('b');
  });
});

describe('a relayed stream has the same bound', () => {
  it('endless 1 MiB deltas from a relay end with TurnTooLargeError at 64 MiB, with the chat and message id', async () => {
    const { body, sent } = endless();
    const stream = RelayedTurnStream.fromReadableStream(body);
    const seen: StreamEvent<unknown>['type'][] = [];
    stream.on('event', (event) => seen.push(event.type));
    const error = await failure(stream.done());
    expect(error).toBeInstanceOf(TurnTooLargeError);
    expect(error).toMatchObject({ limit: CLIENT_DEFAULTS.maxTurnBytes, chatId: CHAT, messageId: 7 });
    expect(sent()).toBeGreaterThan(64 * MiB);
    expect(sent()).toBeLessThanOrEqual(64 * MiB + 2 * DELTA.byteLength);
    expect(seen[0]).toBe('start');
    expect(seen.length).toBeLessThan(66);
  });

  it("a relay's maxTurnBytes bounds it; a relayed turn within it is read whole", async () => {
    const { body } = endless();
    const error = await failure(RelayedTurnStream.fromReadableStream(body, { maxTurnBytes: 3 * MiB }).done());
    expect(error).toMatchObject({ name: 'TurnTooLargeError', limit: 3 * MiB });

    const text = sseText(turnEvents(['fits']));
    const relay = RelayedTurnStream.fromReadableStream(chunkedBody(text), {
      maxTurnBytes: encoder.encode(text).byteLength,
    });
    expect(await relay.finalText()).toBe('fits');
  });
});
