import { describe, expect, it } from 'vitest';
import {
  AbortError,
  RedirectError,
  RelayedTurnStream,
  ResponseTooLargeError,
  ResponseValidationError,
  TimeoutError,
} from '../../src/index.js';
import { fakeClient } from '../support/fake-client.js';
import { type FakeFetch, fakeFetch, skill } from '../support/fake-fetch.js';
import { CHAT, sseText, turnEvents, type WireEvent } from '../support/sse.js';
import { type StuckProbe, stuckResponse } from '../support/stuck-cancel.js';

// Every body here has a `cancel()` that never settles (as msw 2.x's mocked responses do). The SDK must not
// wait on it: each test ends with its typed error or its result well within its own timeout.
const QUICK = 10_000;

function client(fetch: FakeFetch, maxResponseBytes?: number) {
  return fakeClient(fetch, {
    retryDelay: { min: 1, max: 5 },
    ...(maxResponseBytes === undefined ? {} : { maxResponseBytes }),
  });
}

const START: WireEvent = ['message.start', { chat_id: CHAT, message_id: 7, request_id: 'req-1' }];
const DELTA: WireEvent = ['message.delta', { text: 'Hel', replace: false }];
const JSON_OK = JSON.stringify({ status: 'success', message: 'OK', message_code: 'api_v1_ok', data: {} });

/** Lets the pulls that follow a read start: they then wait on the silent body. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

/** A turn stream whose first body sends start and one delta, then stays open; its cancel never settles. */
function halfOpen(probe: StuckProbe, then?: () => Response) {
  let n = 0;
  return fakeFetch(() =>
    n++ === 0 || !then
      ? stuckResponse(sseText([START, DELTA]), { type: 'text/event-stream', end: 'stall' }, probe)
      : then(),
  );
}

describe('cleanup never waits on a cancel that does not settle', () => {
  it(
    '4.4: the stream endpoint answered 200 application/json is a ResponseValidationError, not a hang',
    async () => {
      const probe = { cancels: 0 };
      const { fetch, requests } = fakeFetch(() => stuckResponse(JSON_OK, {}, probe));
      const error = await client(fetch)
        .turns.stream(CHAT, { content: 'x' })
        .finalText()
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ResponseValidationError);
      expect((error as Error).message).toContain('expected text/event-stream, got application/json');
      expect(probe.cancels).toBe(1); // the body is still let go of
      expect(requests).toHaveLength(1);
    },
    QUICK,
  );

  it(
    '4.4: turns.run meets the same JSON answer with the same typed error',
    async () => {
      const { fetch } = fakeFetch(() => stuckResponse(JSON_OK));
      await expect(client(fetch).turns.run(CHAT, { content: 'x' })).rejects.toBeInstanceOf(
        ResponseValidationError,
      );
    },
    QUICK,
  );

  it(
    '4.4: a stream left mid-way (break out of the loop) returns at once and lets go of the body',
    async () => {
      const probe = { cancels: 0 };
      const { fetch } = halfOpen(probe);
      const stream = client(fetch).turns.stream(CHAT, { content: 'x' });
      for await (const event of stream) if (event.type === 'delta') break;
      expect(stream.text).toBe('Hel');
      expect(probe.cancels).toBe(1);
    },
    QUICK,
  );

  it(
    '4.4: a stream aborted mid-way by its signal rejects with AbortError',
    async () => {
      const probe = { cancels: 0 };
      const { fetch } = halfOpen(probe);
      const controller = new AbortController();
      const stream = client(fetch).turns.stream(CHAT, { content: 'x' }, { signal: controller.signal });
      stream.on('text', () => controller.abort());
      await expect(stream.finalText()).rejects.toBeInstanceOf(AbortError);
      expect(probe.cancels).toBeGreaterThanOrEqual(1);
    },
    QUICK,
  );

  it(
    '4.4: a stream stopped mid-way with abort() rejects with AbortError',
    async () => {
      const { fetch } = halfOpen({ cancels: 0 });
      const stream = client(fetch).turns.stream(CHAT, { content: 'x' });
      stream.on('text', () => stream.abort());
      await expect(stream.done()).rejects.toBeInstanceOf(AbortError);
    },
    QUICK,
  );

  it(
    '4.4: a stream that falls silent mid-way is re-opened with its key and finishes',
    async () => {
      const probe = { cancels: 0 };
      const replay = () => stuckResponse(sseText(turnEvents(['Hello'])), { type: 'text/event-stream' });
      const { fetch, requests } = halfOpen(probe, replay);
      const stream = client(fetch).turns.stream(CHAT, { content: 'x' }, { idleTimeout: 100 });
      expect(await stream.finalText()).toBe('Hello');
      expect(requests).toHaveLength(2);
      expect(probe.cancels).toBe(1);
    },
    QUICK,
  );

  it(
    '4.4: a relayed byte stream cancelled mid-way settles its cancel and lets go of the connection',
    async () => {
      const probe = { cancels: 0 };
      const { fetch, requests } = halfOpen(probe);
      const reader = client(fetch).turns.stream(CHAT, { content: 'x' }).toReadableStream().getReader();
      await reader.read();
      await reader.read(); // the delta: the next pull waits on the silent body
      await settle();
      await reader.cancel('client went away');
      expect(probe.cancels).toBe(1);
      await settle();
      expect(requests).toHaveLength(1); // not re-opened for a reader that left
    },
    QUICK,
  );

  it(
    '4.4: both branches of a tee cancelled mid-way settle',
    async () => {
      const probe = { cancels: 0 };
      const { fetch } = halfOpen(probe);
      const [a, b] = client(fetch).turns.stream(CHAT, { content: 'x' }).tee();
      const readers = [a.toReadableStream().getReader(), b.toReadableStream().getReader()];
      for (let i = 0; i < 2; i++) await Promise.all(readers.map((reader) => reader.read()));
      await settle();
      await Promise.all(readers.map((reader) => reader.cancel()));
      expect(probe.cancels).toBe(1);
    },
    QUICK,
  );

  it(
    '4.4: a relayed stream (fromReadableStream) left mid-way returns at once',
    async () => {
      const probe = { cancels: 0 };
      const body = stuckResponse(sseText([START, DELTA]), { type: 'text/event-stream', end: 'stall' }, probe);
      const relayed = RelayedTurnStream.fromReadableStream(body.body!);
      for await (const event of relayed) if (event.type === 'delta') break;
      expect(probe.cancels).toBe(1);
    },
    QUICK,
  );

  it(
    '4.4: a relayed stream re-relayed and cancelled mid-way settles its cancel',
    async () => {
      const probe = { cancels: 0 };
      const body = stuckResponse(sseText([START, DELTA]), { type: 'text/event-stream', end: 'stall' }, probe);
      const reader = RelayedTurnStream.fromReadableStream(body.body!).toReadableStream().getReader();
      await reader.read();
      await reader.read();
      await settle();
      await reader.cancel();
      expect(probe.cancels).toBe(1);
    },
    QUICK,
  );

  it(
    '8: a JSON body past maxResponseBytes is a ResponseTooLargeError, not retried',
    async () => {
      const probe = { cancels: 0 };
      const big = JSON.stringify({ status: 'success', data: skill({ instructions: 'x'.repeat(5_000) }) });
      const { fetch, requests } = fakeFetch(() => stuckResponse(big, { chunks: [1_024] }, probe));
      await expect(client(fetch, 2_000).skills.get(1)).rejects.toBeInstanceOf(ResponseTooLargeError);
      expect(probe.cancels).toBe(1);
      expect(requests).toHaveLength(1);
    },
    QUICK,
  );

  it(
    '8: an error body past maxResponseBytes is a ResponseTooLargeError, on a call and on the stream endpoint',
    async () => {
      const huge = () =>
        stuckResponse('x'.repeat(5_000), { status: 409, type: 'text/plain', chunks: [1_024] });
      const { fetch } = fakeFetch(huge);
      await expect(client(fetch, 2_000).skills.get(1)).rejects.toBeInstanceOf(ResponseTooLargeError);
      await expect(
        client(fetch, 2_000).turns.stream(CHAT, { content: 'x' }).finalText(),
      ).rejects.toBeInstanceOf(ResponseTooLargeError);
    },
    QUICK,
  );

  it(
    "8: a JSON body that falls silent mid-way ends with TimeoutError at the call's timeout",
    async () => {
      const probe = { cancels: 0 };
      const { fetch } = fakeFetch(() => stuckResponse('{"status":"succ', { end: 'stall' }, probe));
      const error = await client(fetch)
        .skills.get(1, { timeout: 200, maxRetries: 0 })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TimeoutError);
      expect(probe.cancels).toBe(1);
    },
    QUICK,
  );

  it(
    'a JSON body read when the signal aborts ends with AbortError',
    async () => {
      const { fetch } = fakeFetch(() => stuckResponse('{"status":"succ', { end: 'stall' }));
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 50);
      await expect(client(fetch).skills.get(1, { signal: controller.signal })).rejects.toBeInstanceOf(
        AbortError,
      );
    },
    QUICK,
  );

  it(
    'a redirect whose body never lets go is a RedirectError',
    async () => {
      const { fetch } = fakeFetch(() => {
        const response = stuckResponse('moved', { status: 302, type: 'text/plain' });
        response.headers.set('location', 'https://elsewhere.test/');
        return response;
      });
      await expect(client(fetch).skills.get(1)).rejects.toBeInstanceOf(RedirectError);
    },
    QUICK,
  );
});
