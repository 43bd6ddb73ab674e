import { describe, expect, it, vi } from 'vitest';
import {
  type Logger,
  NotFoundError,
  ResponseValidationError,
  type StreamEvent,
  StreamInterruptedError,
} from '../../src/index.js';
import { fakeClient } from '../support/fake-client.js';
import { type FakeFetch, fail, fakeFetch } from '../support/fake-fetch.js';
import { CHAT, sseResponse, sseText, turnEvents, type WireEvent } from '../support/sse.js';

// 4.4: a streamed turn whose connection breaks is re-opened with its key; what is not a stream at all is
// a typed error, never read as one.

const START: WireEvent = ['message.start', { chat_id: CHAT, message_id: 7, request_id: 'req-1' }];
const whole = () => sseResponse(sseText(turnEvents(['hi'])));

function client(fetch: FakeFetch, logger?: Logger) {
  return fakeClient(fetch, { retryDelay: { min: 1, max: 2 }, ...(logger ? { logger } : {}) });
}

async function read(fetch: FakeFetch, logger?: Logger, maxResumes?: number) {
  const stream = client(fetch, logger).turns.stream(
    CHAT,
    { content: 'x' },
    maxResumes === undefined ? {} : { maxResumes },
  );
  const events: StreamEvent<unknown>[] = [];
  try {
    for await (const event of stream) events.push(event);
    return { stream, events, error: undefined };
  } catch (error) {
    return { stream, events, error };
  }
}

const resumedReasons = (events: StreamEvent<unknown>[]) =>
  events.flatMap((e) => (e.type === 'resumed' ? [e.reason] : []));

describe('re-opening a broken stream', () => {
  it('4.4 a stream response without a body is a break: re-opened with the key, the resumed event says why', async () => {
    const empty = new Response(null, { headers: { 'content-type': 'text/event-stream' } });
    const { fetch, requests } = fakeFetch(empty, whole());
    const { events, stream } = await read(fetch);
    expect(resumedReasons(events)).toEqual(['the response had no body']);
    expect(stream.text).toBe('hi');
    expect(requests).toHaveLength(2);
    expect(requests[1]!.headers.get('idempotency-key')).toBe(stream.idempotencyKey);
  });

  it('4.4 a body that ends before the terminal event is re-opened; the warning names the key, attempt and reason', async () => {
    const warn = vi.fn();
    const { fetch, requests } = fakeFetch(sseResponse(sseText([START])), whole());
    const { events, stream } = await read(fetch, { warn });
    expect(resumedReasons(events)).toEqual(['the stream ended before its terminal event']);
    expect(warn).toHaveBeenCalledWith('re-opening a broken stream with its key', {
      idempotencyKey: stream.idempotencyKey,
      attempt: 1,
      reason: 'the stream ended before its terminal event',
    });
    expect(requests).toHaveLength(2);
  });

  it('4.4 a logger without warn is fine: the stream is re-opened all the same', async () => {
    const { fetch } = fakeFetch(sseResponse(sseText([START])), whole());
    const { events, error } = await read(fetch, { debug: () => {} });
    expect(error).toBeUndefined();
    expect(events.at(-1)?.type).toBe('completed');
  });

  it('4.4 with no resume left, the break is a StreamInterruptedError naming the reason', async () => {
    const { fetch, requests } = fakeFetch(sseResponse(sseText([START])));
    const { error } = await read(fetch, undefined, 0);
    expect(error).toBeInstanceOf(StreamInterruptedError);
    expect((error as Error).message).toMatch(
      /^the stream broke \(the stream ended before its terminal event\) and could not be recovered/,
    );
    expect(requests).toHaveLength(1);
  });

  it('4.4 a re-open refused for good (404) is a StreamInterruptedError with the 404 as its cause', async () => {
    const { fetch, requests } = fakeFetch(sseResponse(sseText([START])), fail(404, 'api_v1_not_found'));
    const { error, events } = await read(fetch);
    expect(error).toBeInstanceOf(StreamInterruptedError);
    expect((error as StreamInterruptedError).cause).toBeInstanceOf(NotFoundError);
    expect((error as StreamInterruptedError).messageId).toBe(7);
    expect(events.map((e) => e.type)).toEqual(['start']);
    expect(requests).toHaveLength(2);
  });

  it('4.4 the first open refused (404) throws the 404 itself', async () => {
    const { fetch } = fakeFetch(fail(404, 'api_v1_not_found'));
    const { error } = await read(fetch);
    expect(error).toBeInstanceOf(NotFoundError);
  });
});

describe('a response that is not an event stream', () => {
  it.each([
    ['application/json', 'expected text/event-stream, got application/json'],
    [undefined, 'expected text/event-stream, got no content type'],
  ])('4.4 content type %s: a ResponseValidationError, not retried', async (type, message) => {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"status":"success"}'));
        controller.close();
      },
    });
    const { fetch, requests } = fakeFetch(
      new Response(body, { headers: type ? { 'content-type': type } : {} }),
    );
    const { error, events } = await read(fetch);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).message).toMatch(new RegExp(`: ${message}$`));
    expect([(error as ResponseValidationError).path, (error as ResponseValidationError).status]).toEqual([
      '',
      200,
    ]);
    expect(events).toEqual([]);
    expect(requests).toHaveLength(1);
  });

  it('4.4 a JSON response without a body is a ResponseValidationError too', async () => {
    const { fetch } = fakeFetch(new Response(null, { headers: { 'content-type': 'application/json' } }));
    const { error } = await read(fetch);
    expect(error).toBeInstanceOf(ResponseValidationError);
  });
});
