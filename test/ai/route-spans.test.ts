import {
  type Context,
  propagation,
  SpanKind,
  SpanStatusCode,
  type TextMapPropagator,
} from '@opentelemetry/api';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { describe, expect, it } from 'vitest';
import { createChatRoute } from '../../src/ai/index.js';
import { serverSpan } from '../../src/ai/route-spans.js';
import { Client } from '../../src/index.js';
import { useMockServer } from '../support/mock-server.js';
import { useOtel } from '../telemetry/otel.js';

// Issue 38 item 5: the chat route's send, resume and stop are SERVER spans that continue the page's trace
// context and are the parents of the client's spans (the real SDK, a stub handler, a real client call).
const otel = useOtel();
const server = useMockServer();
const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const PAGE_SPAN = '00f067aa0ba902b7';

const request = (path: string, init: RequestInit = {}) =>
  new Request(`https://app.example${path}`, {
    method: 'POST',
    ...init,
    headers: { traceparent: `00-${TRACE}-${PAGE_SPAN}-01`, baggage: 'tenant=acme', ...init.headers },
  });

describe('serverSpan', () => {
  it('a SERVER span continuing the incoming trace, the parent of the client spans made inside', async () => {
    const client = new Client({ baseUrl: server.url, token: 'mock-token' });
    const response = await serverSpan('stop', request('/api/chat/c1/stop'), async () => {
      await client.chats.list();
      return Response.json({ cancelled: false });
    });
    expect(await response.json()).toEqual({ cancelled: false });
    const span = otel.span('chat.stop');
    expect(span.kind).toBe(SpanKind.SERVER);
    expect(span.spanContext().traceId).toBe(TRACE);
    expect(span.parentSpanContext?.spanId).toBe(PAGE_SPAN);
    expect(span.attributes).toEqual({
      'http.request.method': 'POST',
      'url.path': '/api/chat/c1/stop',
      'url.scheme': 'https',
      'convo.route.action': 'stop',
      'http.response.status_code': 200,
    });
    const call = otel.span('chats.list');
    expect(call.parentSpanContext?.spanId).toBe(span.spanContext().spanId);
    expect(call.spanContext().traceId).toBe(TRACE);
  });

  it("a streamed answer's span ends with its body; the turn's stream, read as the body is, is its child", async () => {
    const client = new Client({ baseUrl: server.url, token: 'mock-token' });
    const chat = await client.chats.create({ name: 'route' });
    const response = await serverSpan('send', request('/api/chat'), async () => {
      const stream = client.turns.stream(chat.id, { content: 'Hello' });
      return new Response(stream.toReadableStream(), { headers: { 'content-type': 'text/event-stream' } });
    });
    expect(otel.finished().some((s) => s.name === 'chat.send')).toBe(false);
    await response.text();
    const span = otel.span('chat.send');
    const turn = otel.span('turns.stream');
    expect(turn.parentSpanContext?.spanId).toBe(span.spanContext().spanId);
    expect(turn.attributes['convo.turn.outcome']).toBe('completed');
    expect(response.headers.get('content-type')).toBe('text/event-stream');
  });

  it('a body the page leaves unread ends the span, marked cancelled, and cancels the answer', async () => {
    let cancelled: unknown;
    const response = await serverSpan(
      'resume',
      request('/api/chat/c1/stream', { method: 'GET' }),
      async () =>
        new Response(
          new ReadableStream({
            cancel: (reason) => {
              cancelled = reason;
            },
          }),
        ),
    );
    await response.body?.cancel('gone');
    expect(cancelled).toBe('gone');
    expect(otel.span('chat.resume').attributes['convo.route.cancelled']).toBe(true);
  });

  it('the answer is read only as the server reads it', async () => {
    let pulls = 0;
    const response = await serverSpan(
      'send',
      request('/api/chat'),
      async () =>
        new Response(
          new ReadableStream(
            {
              pull: (controller) => {
                pulls++;
                controller.enqueue(new TextEncoder().encode('x'));
                controller.close();
              },
            },
            { highWaterMark: 0 },
          ),
        ),
    );
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(pulls).toBe(0);
    expect(await response.text()).toBe('x');
    expect(pulls).toBe(1);
  });

  it('a thrown value or a failing body that is no Error is error.type Error', async () => {
    await expect(
      serverSpan('send', request('/api/chat'), async () => {
        throw 'text';
      }),
    ).rejects.toBe('text');
    const broken = await serverSpan(
      'stop',
      request('/api/chat/c/stop'),
      async () => new Response(new ReadableStream({ pull: (controller) => controller.error('text') })),
    );
    await expect(broken.text()).rejects.toBe('text');
    expect(otel.span('chat.send').attributes['error.type']).toBe('Error');
    expect(otel.span('chat.stop').attributes['error.type']).toBe('Error');
  });

  it('a body the page leaves while a read waits ends the span, marked cancelled', async () => {
    const response = await serverSpan(
      'resume',
      request('/api/chat/c1/stream', { method: 'GET' }),
      async () => new Response(new ReadableStream({ pull: () => new Promise(() => {}) })),
    );
    await response.body?.cancel();
    expect(otel.span('chat.resume').attributes).toMatchObject({
      'convo.route.cancelled': true,
      'http.request.method': 'GET',
    });
  });

  it('a 5xx answer or a throw marks the span ERROR', async () => {
    const failed = await serverSpan(
      'send',
      request('/api/chat'),
      async () => new Response('no', { status: 503 }),
    );
    // The span ends with the answer's body, read here as the server would.
    expect(await failed.text()).toBe('no');
    expect(otel.span('chat.send').status).toEqual({ code: SpanStatusCode.ERROR, message: '503' });
    await expect(
      serverSpan('stop', request('/api/chat/c/stop'), async () => {
        throw new TypeError('boom');
      }),
    ).rejects.toThrow('boom');
    expect(otel.span('chat.stop').attributes['error.type']).toBe('TypeError');
  });

  it('without a trace context the span starts a trace of its own', async () => {
    const answer = await serverSpan(
      'stop',
      new Request('https://app.example/api/chat/c/stop', { method: 'POST' }),
      async () => new Response(null, { status: 204 }),
    );
    expect(answer.status).toBe(204);
    const span = otel.span('chat.stop');
    expect(span.parentSpanContext).toBeUndefined();
    expect(span.spanContext().traceId).not.toBe(TRACE);
  });

  it("createChatRoute: a send is a SERVER span of the page trace, parent of the transport's span of the turn it streams", async () => {
    const client = new Client({ baseUrl: server.url, token: 'mock-token' });
    const chat = await client.chats.create({ name: 'route' });
    const route = createChatRoute({ client, authorize: () => ({ caller: 'page' }) });
    const message = { id: 'm1', role: 'user', parts: [{ type: 'text', text: 'Hello' }] };
    const response = await route.handle(
      request('/api/chat', {
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ id: chat.id, trigger: 'submit-message', messages: [message] }),
      }),
    );
    expect(response.status).toBe(200);
    await response.text();
    const send = otel.span('chat.send');
    expect(send.kind).toBe(SpanKind.SERVER);
    expect(send.parentSpanContext?.spanId).toBe(PAGE_SPAN);
    const transport = otel.span('chat.transport.send');
    expect(transport.parentSpanContext?.spanId).toBe(send.spanContext().spanId);
    const turn = otel.span('turns.stream');
    expect(turn.parentSpanContext?.spanId).toBe(transport.spanContext().spanId);
    expect(turn.spanContext().traceId).toBe(TRACE);
    const stop = await route.handle(request(`/api/chat/${chat.id}/stop`));
    expect(stop.status).toBe(200);
    await stop.text();
    expect(otel.span('chat.stop').spanContext().traceId).toBe(TRACE);
  });

  it('a 500 is an error, a 499 is not; a body that fails marks the span with its error', async () => {
    for (const [status, error] of [
      [500, true],
      [499, false],
    ] as const) {
      const answer = await serverSpan(
        'send',
        request('/api/chat'),
        async () => new Response('x', { status }),
      );
      await answer.text();
      const span = otel.finished().at(-1);
      expect(span?.status.code).toBe(error ? SpanStatusCode.ERROR : SpanStatusCode.UNSET);
      expect(span?.attributes['error.type']).toBe(error ? String(status) : undefined);
    }
    const broken = await serverSpan(
      'resume',
      request('/api/chat/c/stream', { method: 'GET' }),
      async () =>
        new Response(
          new ReadableStream({
            pull: (controller) => controller.error(new RangeError('cut')),
          }),
        ),
    );
    await expect(broken.text()).rejects.toThrow('cut');
    expect(otel.span('chat.resume').attributes['error.type']).toBe('RangeError');
  });

  it("the propagator reads the request's headers by name and lists them", async () => {
    const seen: string[][] = [];
    const listing: TextMapPropagator = {
      inject: () => {},
      extract: (context: Context, carrier, getter) => {
        seen.push([...getter.keys(carrier)].sort(), [String(getter.get(carrier, 'x-trace'))]);
        return context;
      },
      fields: () => [],
    };
    propagation.disable();
    propagation.setGlobalPropagator(listing);
    try {
      const answer = await serverSpan(
        'stop',
        new Request('https://app.example/api/chat/c/stop', { method: 'POST', headers: { 'x-trace': 'abc' } }),
        async () => new Response(null, { status: 204 }),
      );
      expect(answer.status).toBe(204);
    } finally {
      propagation.disable();
      propagation.setGlobalPropagator(
        new CompositePropagator({
          propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()],
        }),
      );
    }
    expect(seen).toEqual([['x-trace'], ['abc']]);
  });
});
