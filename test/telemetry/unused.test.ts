import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Client } from '../../src/index.js';
import { registered, TelemetryGate } from '../../src/telemetry/gate.js';
import { useMockServer } from '../support/mock-server.js';

// Issue 38, "free when unused": with no provider registered and none given, nothing records, nothing is
// loaded and no request carries a trace context. A provider given as an option records without any global.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const server = useMockServer();

afterEach(() => {
  vi.restoreAllMocks();
  trace.disable();
});

function capturing() {
  const sent: Headers[] = [];
  const fetchWith = (input: Request | URL | string, init?: RequestInit) => {
    sent.push(new Headers(init?.headers));
    return fetch(input, init);
  };
  return { sent, fetch: fetchWith };
}

describe('no provider registered', () => {
  it('nothing is loaded or recorded, and no request carries a traceparent', async () => {
    expect(registered()).toBe(false);
    const load = vi.spyOn(TelemetryGate.prototype, 'load');
    const { sent, fetch } = capturing();
    const client = new Client({ baseUrl: server.url, token: 'mock-token', fetch });
    const chat = await client.chats.create({ name: 'untraced' });
    await client.turns.run(chat.id, { content: '[[mock:tool_approval]]' }, { onToolApproval: () => true });
    await client.turns.send(chat.id, { content: 'x' });
    expect(load).not.toHaveBeenCalled();
    expect(sent.length).toBeGreaterThan(3);
    for (const headers of sent)
      expect([...headers.keys()].filter((name) => /trace|baggage/.test(name))).toEqual([]);
  });

  it('registered() follows what is registered with the API, and its removal', () => {
    expect(registered()).toBe(false);
    trace.setGlobalTracerProvider(new TracerProvider());
    expect(registered()).toBe(true);
    trace.disable();
    expect(registered()).toBe(false);
  });
});

describe('a provider given as an option', () => {
  it('records its spans with no global registration, and writes the W3C traceparent itself', async () => {
    const spans = new InMemorySpanExporter();
    const tracerProvider = new TracerProvider({
      spanProcessors: [new SimpleSpanProcessor({ exporter: spans })],
    });
    const { sent, fetch } = capturing();
    const client = new Client({
      baseUrl: server.url,
      token: 'mock-token',
      fetch,
      telemetry: { tracerProvider },
    });
    await client.chats.list();
    const [span] = spans.getFinishedSpans();
    expect(span?.name).toBe('chats.list');
    const { traceId, spanId } = span?.spanContext() ?? {};
    expect(sent[0]?.get('traceparent')).toBe(`00-${traceId}-${spanId}-01`);
    // Another client without the option records nothing.
    await new Client({ baseUrl: server.url, token: 'mock-token' }).chats.list();
    expect(spans.getFinishedSpans()).toHaveLength(1);
    await tracerProvider.shutdown();
  });

  it('a streamed turn dropped unread to its end ends its span (abandoned) once collected', async () => {
    const spans = new InMemorySpanExporter();
    const tracerProvider = new TracerProvider({
      spanProcessors: [new SimpleSpanProcessor({ exporter: spans })],
    });
    const client = new Client({ baseUrl: server.url, token: 'mock-token', telemetry: { tracerProvider } });
    const chat = await client.chats.create({ name: 'dropped' });
    await (async () => {
      const iterator = client.turns.stream(chat.id, { content: '[[mock:hang]]' })[Symbol.asyncIterator]();
      expect((await iterator.next()).value).toMatchObject({ type: 'start' });
    })();
    // Bounded by rounds of collection, not by time: the registry's callback runs after a collection.
    for (
      let round = 0;
      round < 50 && !spans.getFinishedSpans().some((s) => s.name === 'turns.stream');
      round++
    ) {
      gc();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const span = spans.getFinishedSpans().find((s) => s.name === 'turns.stream');
    expect(span?.attributes['convo.turn.outcome']).toBe('abandoned');
    await client.turns.cancel(chat.id);
    await tracerProvider.shutdown();
  });
});
