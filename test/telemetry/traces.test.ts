import { context, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { TraceState } from '@opentelemetry/core';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, Client, type ClientOptions, NotFoundError, ValidationError } from '../../src/index.js';
import { useMockServer } from '../support/mock-server.js';
import { freshMeters } from './meters.js';
import { useOtel } from './otel.js';

// Traces and metrics of the client's calls with the real OpenTelemetry SDK registered, against the mock over
// real HTTP (issue 38: the span of each call, the streamed turn's span, the handler loop, the answers, the
// trace context on each request, the metrics).
const TOKEN = 'tok_telemetry_secret_7f3a91';
const otel = useOtel();
const server = useMockServer({ tokens: [{ token: TOKEN }] });
const meters: Array<ReturnType<typeof freshMeters>> = [];

afterEach(async () => {
  for (const meter of meters.splice(0)) await meter.shutdown();
});

/** A client of the mock whose requests' headers are kept, with a meter provider of its own. */
function tracedClient(options: ClientOptions = {}) {
  const sent: Headers[] = [];
  const meter = freshMeters();
  meters.push(meter);
  const client = new Client({
    baseUrl: server.url,
    token: TOKEN,
    retryDelay: { min: 1, max: 5 },
    fetch: (input, init) => {
      sent.push(new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined)));
      return fetch(input, init);
    },
    ...options,
    telemetry: { meterProvider: meter.meterProvider, ...options.telemetry },
  });
  return { client, sent, meter };
}

const newChat = async (client: Client) => (await client.chats.create({ name: 'traced', model_id: 1 })).id;
const port = () => Number(new URL(server.url).port);
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;
const idOf = (span: ReadableSpan) => span.spanContext().spanId;

describe('the span of each call', () => {
  it('one CLIENT span per call, named after the endpoint, with http, server, url and gen_ai attributes', async () => {
    const { client } = tracedClient();
    const chatId = await newChat(client);
    await client.chats.get(chatId);
    const create = otel.span('chats.create');
    expect(create.kind).toBe(SpanKind.CLIENT);
    expect(create.attributes).toEqual({
      'gen_ai.operation.name': 'chats.create',
      'gen_ai.provider.name': 'convo',
      'gen_ai.request.model': '1',
      'convo.endpoint': 'chats.create',
      'http.request.method': 'POST',
      'http.response.status_code': 201,
      'server.address': '127.0.0.1',
      'server.port': port(),
      'url.full': `${server.url}/api/v1/chats`,
    });
    const get = otel.span('chats.get');
    expect(get.attributes).toMatchObject({
      'http.request.method': 'GET',
      'http.response.status_code': 200,
      'gen_ai.conversation.id': chatId,
      'url.full': `${server.url}/api/v1/chats/${chatId}`,
    });
    expect(get.attributes).not.toHaveProperty('http.request.resend_count');
    expect(get.status.code).toBe(SpanStatusCode.UNSET);
  });

  it('a list page names its query in url.full', async () => {
    const { client } = tracedClient();
    await client.chats.list({ page: 1, size: 5 });
    expect(otel.span('chats.list').attributes['url.full']).toBe(`${server.url}/api/v1/chats?page=1&size=5`);
  });

  it('a failed call: status ERROR, error.type the message code, the status code, the duration metric with error.type', async () => {
    const { client, meter } = tracedClient();
    const missing = crypto.randomUUID();
    await expect(client.chats.get(missing)).rejects.toBeInstanceOf(NotFoundError);
    const span = otel.span('chats.get');
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: 'api_v1_not_found' });
    expect(span.attributes).toMatchObject({
      'error.type': 'api_v1_not_found',
      'http.response.status_code': 404,
      'gen_ai.conversation.id': missing,
    });
    const [point] = await meter.points('gen_ai.client.operation.duration');
    expect(point?.attributes).toEqual({
      'gen_ai.operation.name': 'chats.get',
      'gen_ai.provider.name': 'convo',
      'convo.endpoint': 'chats.get',
      'server.address': '127.0.0.1',
      'server.port': port(),
      'error.type': 'api_v1_not_found',
    });
    expect(point?.value).toMatchObject({ count: 1 });
  });

  it('a retried call: http.request.resend_count, one span, each attempt under its traceparent, the retries counter', async () => {
    const { client, sent, meter } = tracedClient();
    const chatId = await newChat(client);
    sent.length = 0;
    server.mock.faults.add({
      route: new RegExp(`/chats/${chatId}$`),
      respond: { status: 503, code: 'api_v1_service_unavailable', errorDetails: { retry_action: 'retry' } },
    });
    await client.chats.get(chatId);
    const span = otel.span('chats.get');
    expect(span.attributes).toMatchObject({
      'http.request.resend_count': 1,
      'http.response.status_code': 200,
    });
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    const { traceId, spanId } = span.spanContext();
    expect(sent.map((headers) => headers.get('traceparent'))).toEqual([
      `00-${traceId}-${spanId}-01`,
      `00-${traceId}-${spanId}-01`,
    ]);
    expect(await meter.points('convo.client.retries')).toEqual([
      { attributes: expect.objectContaining({ 'convo.endpoint': 'chats.get' }), value: 1 },
    ]);
  });
});

describe('propagation', () => {
  it('each request carries the traceparent of its span, with tracestate and baggage where the propagator writes them', async () => {
    const { client, sent } = tracedClient();
    const parent = otel.tracerProvider.getTracer('app').startSpan('app');
    const state = parent.spanContext();
    const withState = trace.setSpanContext(context.active(), {
      ...state,
      traceState: new TraceState('vendor=v1'),
    });
    const baggage = propagation.createBaggage({ tenant: { value: 'acme' } });
    // A page is fetched when awaited: inside the context.
    await context.with(propagation.setBaggage(withState, baggage), async () => {
      await client.chats.list();
    });
    parent.end();
    const list = otel.span('chats.list');
    expect(list.spanContext().traceId).toBe(state.traceId);
    expect(parentOf(list)).toBe(state.spanId);
    const [headers] = sent;
    expect(headers?.get('traceparent')).toBe(`00-${state.traceId}-${idOf(list)}-01`);
    expect(headers?.get('tracestate')).toBe('vendor=v1');
    expect(headers?.get('baggage')).toBe('tenant=acme');
  });

  it('propagate: false sends no trace context; the span is still recorded', async () => {
    const { client, sent } = tracedClient({ telemetry: { propagate: false } });
    await client.chats.list();
    expect(sent[0]?.has('traceparent')).toBe(false);
    expect(otel.span('chats.list').attributes['http.response.status_code']).toBe(200);
  });

  it('the inspector shows the trace id of the request, so an exchange is matched to its span', async () => {
    const { startMockServer } = await import('../../src/mock/index.js');
    const inspected = await startMockServer({ port: 0, inspector: true });
    try {
      const client = new Client({ baseUrl: inspected.url, token: 'mock-token' });
      await client.chats.list();
      const state = await (await fetch(`${inspected.url}/_inspector/state`)).json();
      expect(state.requests[0].traceId).toBe(otel.span('chats.list').spanContext().traceId);
    } finally {
      await inspected.close();
    }
  });
});

describe('a streamed turn', () => {
  it('one span from the first read to the terminal event: time to first chunk, usage, finish reason, response id; its metrics', async () => {
    const { client, sent, meter } = tracedClient();
    const chatId = await newChat(client);
    sent.length = 0;
    const stream = client.turns.stream(chatId, { content: 'Hello', model_id: 1 });
    const turn = await stream.finalTurn();
    const span = otel.span('turns.stream');
    expect(span.kind).toBe(SpanKind.CLIENT);
    expect(span.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.conversation.id': chatId,
      'gen_ai.request.model': '1',
      'gen_ai.response.id': String(turn.id),
      'gen_ai.response.model': turn.usage?.model,
      'gen_ai.response.finish_reasons': ['stop'],
      'gen_ai.usage.input_tokens': turn.usage?.prompt_tokens,
      'gen_ai.usage.output_tokens': turn.usage?.completion_tokens,
      'http.request.method': 'POST',
      'http.response.status_code': 200,
      'url.full': `${server.url}/api/v1/chats/${chatId}/messages/stream`,
      'convo.turn.outcome': 'completed',
      'convo.stream.resumes': 0,
    });
    const first = span.attributes['gen_ai.response.time_to_first_chunk'] as number;
    expect(first).toBeGreaterThan(0);
    const seconds = span.duration[0] + span.duration[1] / 1e9;
    expect(first).toBeLessThanOrEqual(seconds);
    expect(sent[0]?.get('traceparent')).toBe(`00-${span.spanContext().traceId}-${idOf(span)}-01`);
    const tokens = await meter.points('gen_ai.client.token.usage');
    expect(tokens.map((p) => [p.attributes['gen_ai.token.type'], (p.value as { sum: number }).sum])).toEqual([
      ['input', turn.usage?.prompt_tokens],
      ['output', turn.usage?.completion_tokens],
    ]);
    expect(tokens[0]?.attributes).toEqual({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'convo',
      'gen_ai.request.model': '1',
      'gen_ai.response.model': turn.usage?.model,
      'convo.endpoint': 'turns.stream',
      'server.address': '127.0.0.1',
      'server.port': port(),
      'gen_ai.token.type': 'input',
    });
    const [firstChunk] = await meter.points('gen_ai.client.operation.time_to_first_chunk');
    expect(firstChunk?.value).toMatchObject({ count: 1, sum: first });
    const durations = await meter.points('gen_ai.client.operation.duration');
    expect(durations.find((p) => p.attributes['convo.endpoint'] === 'turns.stream')?.value).toMatchObject({
      count: 1,
    });
  });

  it('a resumed stream: a convo.stream.resumed event, the resume count, the resumes counter, one span', async () => {
    const { client, sent, meter } = tracedClient();
    const chatId = await newChat(client);
    sent.length = 0;
    server.mock.faults.add({ route: 'stream', cutAfterEvents: 3 });
    await client.turns.stream(chatId, { content: '[[mock:words n=12]]' }).finalTurn();
    const span = otel.span('turns.stream');
    expect(span.attributes).toMatchObject({ 'convo.stream.resumes': 1, 'convo.turn.outcome': 'completed' });
    const resumed = span.events.filter((event) => event.name === 'convo.stream.resumed');
    expect(resumed).toHaveLength(1);
    expect(resumed[0]?.attributes).toMatchObject({ 'convo.stream.resume.attempt': 1 });
    expect(typeof resumed[0]?.attributes?.['convo.stream.resume.reason']).toBe('string');
    // Both connections carried the turn span's trace context.
    expect(sent.map((h) => h.get('traceparent'))).toEqual([
      `00-${span.spanContext().traceId}-${idOf(span)}-01`,
      `00-${span.spanContext().traceId}-${idOf(span)}-01`,
    ]);
    expect(await meter.points('convo.client.stream.resumes')).toEqual([
      { attributes: expect.objectContaining({ 'convo.endpoint': 'turns.stream' }), value: 1 },
    ]);
  });

  it('a cancelled turn ends its span at the cancelled event; the cancel is a span of the same trace', async () => {
    const { client } = tracedClient();
    const chatId = await newChat(client);
    const stream = client.turns.stream(chatId, { content: '[[mock:hang]]' });
    const app = otel.tracerProvider.getTracer('app');
    await app.startActiveSpan('app', async (root) => {
      for await (const event of stream) if (event.type === 'start') await stream.cancel();
      root.end();
    });
    const span = otel.span('turns.stream');
    expect(span.attributes).toMatchObject({
      'convo.turn.outcome': 'cancelled',
      'gen_ai.response.finish_reasons': ['cancelled'],
    });
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    const cancel = otel.span('turns.cancel');
    expect(cancel.spanContext().traceId).toBe(span.spanContext().traceId);
    expect(parentOf(span)).toBe(idOf(otel.span('app')));
  });

  it('a reader that leaves early ends the span (stopped); an aborted read ends it failed', async () => {
    const { client } = tracedClient();
    const chatId = await newChat(client);
    // Paced: a body that came in one chunk would hand the span its terminal event with the first delta.
    const content = '[[mock:slow ms=5]] [[mock:words n=50]]';
    for await (const event of client.turns.stream(chatId, { content })) if (event.type === 'delta') break;
    expect(otel.span('turns.stream').attributes['convo.turn.outcome']).toBe('stopped');
    const controller = new AbortController();
    // Another chat: the first turn may still run at the service after its reader left (7.4: chat busy).
    const other = await newChat(client);
    const aborted = client.turns.stream(other, { content: '[[mock:hang]]' }, { signal: controller.signal });
    await expect(
      (async () => {
        for await (const event of aborted) if (event.type === 'start') controller.abort();
      })(),
    ).rejects.toThrow();
    const spans = otel.finished().filter((s) => s.name === 'turns.stream');
    expect(spans[1]?.attributes).toMatchObject({
      'convo.turn.outcome': 'failed',
      'error.type': 'AbortError',
    });
    expect(spans[1]?.status.code).toBe(SpanStatusCode.ERROR);
    await client.turns.cancel(other);
  });

  it('a turn that ends in message.error: status ERROR, error.type its code', async () => {
    const { client } = tracedClient();
    const chatId = await newChat(client);
    const end = await client.turns.stream(chatId, { content: '[[mock:error code=upstream_error]]' }).done();
    expect(end.type).toBe('error');
    const span = otel.span('turns.stream');
    expect(span.attributes).toMatchObject({ 'convo.turn.outcome': 'error', 'error.type': 'upstream_error' });
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: 'upstream_error' });
  });

  it('a bad input is sent nowhere and makes no span', async () => {
    const { client, sent } = tracedClient();
    await expect(client.turns.stream('not-a-uuid', { content: 'x' }).finalTurn()).rejects.toBeInstanceOf(
      ValidationError,
    );
    expect(sent).toEqual([]);
    expect(otel.finished()).toEqual([]);
  });
});

describe('the handler loop and the answers', () => {
  it('an approval: turns.run > turns.stream > actions.approveTool in one trace, the interaction raised and answered with its wait', async () => {
    const { client, sent } = tracedClient();
    const chatId = await newChat(client);
    sent.length = 0;
    const turn = await client.turns.run(
      chatId,
      { content: '[[mock:tool_approval]]' },
      { onToolApproval: () => true },
    );
    expect(turn.status).toBe('completed');
    const run = otel.span('turns.run');
    const stream = otel.span('turns.stream');
    const answer = otel.span('actions.approveTool');
    expect(run.kind).toBe(SpanKind.INTERNAL);
    expect(run.attributes).toMatchObject({ 'gen_ai.conversation.id': chatId, 'convo.endpoint': 'turns.run' });
    expect(parentOf(stream)).toBe(idOf(run));
    expect(parentOf(answer)).toBe(idOf(stream));
    expect(new Set([run, stream, answer].map((s) => s.spanContext().traceId)).size).toBe(1);
    const raised = stream.events.find((e) => e.name === 'convo.interaction.raised');
    const answered = stream.events.find((e) => e.name === 'convo.interaction.answered');
    expect(raised?.attributes).toMatchObject({ 'convo.interaction.kind': 'tool_approval' });
    expect(answered?.attributes).toMatchObject({
      'convo.interaction.kind': 'tool_approval',
      'convo.interaction.answer': 'approve',
      'convo.action.id': raised?.attributes?.['convo.action.id'],
    });
    expect(answered?.attributes?.['convo.interaction.wait_ms']).toBeGreaterThanOrEqual(0);
    expect(answer.attributes).toMatchObject({
      'http.response.status_code': 200,
      'gen_ai.conversation.id': chatId,
    });
    // The answer's request carried its own span's context.
    const answerHeaders = sent.find((h) => h.get('traceparent')?.includes(idOf(answer)));
    expect(answerHeaders).toBeDefined();
  });

  it('a rejected plan is answered reject', async () => {
    const { client } = tracedClient();
    const chatId = await newChat(client);
    await client.turns.run(chatId, { content: '[[mock:plan_approval]]' });
    const answered = otel.span('turns.stream').events.find((e) => e.name === 'convo.interaction.answered');
    expect(answered?.attributes).toMatchObject({
      'convo.interaction.kind': 'plan_approval',
      'convo.interaction.answer': 'reject',
    });
    expect(otel.span('actions.respondPlan').status.code).toBe(SpanStatusCode.UNSET);
  });

  it('a synchronous turn: turns.send with the usage and the chat', async () => {
    const { client, meter } = tracedClient();
    const chatId = await newChat(client);
    const turn = await client.turns.send(chatId, { content: 'Hello' });
    expect(otel.span('turns.send').attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.conversation.id': chatId,
      'gen_ai.usage.input_tokens': turn.usage?.prompt_tokens,
      'gen_ai.usage.output_tokens': turn.usage?.completion_tokens,
      'http.response.status_code': 200,
    });
    const tokens = await meter.points('gen_ai.client.token.usage');
    expect(tokens.map((p) => p.attributes['convo.endpoint'])).toEqual(['turns.send', 'turns.send']);
  });
});

describe('content and secrets', () => {
  const PROMPT = 'The quarterly numbers of Project Nightingale';

  /** Everything exported, as text: spans (names, attributes, events, links, status) and metrics. */
  const exported = async (meter: ReturnType<typeof freshMeters>) =>
    JSON.stringify(
      otel.finished().map((s) => ({
        name: s.name,
        attributes: s.attributes,
        events: s.events,
        links: s.links,
        status: s.status,
        resource: s.resource.attributes,
      })),
    ) + JSON.stringify(await meter.all());

  it('no token, Authorization or idempotency key in any attribute, event or metric; no prompt or answer by default', async () => {
    const { client, meter } = tracedClient();
    const chatId = await newChat(client);
    const stream = client.turns.stream(chatId, { content: `${PROMPT} [[mock:tool_approval]]` });
    for await (const event of stream)
      if (event.type === 'action_required' && event.interaction.kind === 'tool_approval')
        await event.interaction.approveAll();
    const sync = await client.turns.send(chatId, { content: PROMPT });
    await expect(client.chats.get(crypto.randomUUID())).rejects.toBeInstanceOf(ApiError);
    const text = await exported(meter);
    expect(text).toContain('turns.stream');
    for (const secret of [TOKEN, 'Bearer', stream.idempotencyKey, sync.idempotencyKey, PROMPT, 'Nightingale'])
      expect(text).not.toContain(secret);
    expect(text).not.toContain(stream.text.slice(0, 20));
    expect(text).not.toContain('gen_ai.input.messages');
  });

  it('captureContent: prompts and answers bounded in bytes, marked when cut, still no secret', async () => {
    const { client, meter } = tracedClient({ telemetry: { captureContent: { maxBytes: 16 } } });
    const chatId = await newChat(client);
    const stream = client.turns.stream(chatId, { content: PROMPT });
    const turn = await stream.finalTurn();
    const span = otel.span('turns.stream');
    const input = JSON.parse(span.attributes['gen_ai.input.messages'] as string);
    expect(input).toEqual([{ role: 'user', parts: [{ type: 'text', content: `${PROMPT.slice(0, 16)}…` }] }]);
    const output = JSON.parse(span.attributes['gen_ai.output.messages'] as string);
    expect(output[0]).toMatchObject({ role: 'assistant', finish_reason: 'stop' });
    expect(new TextEncoder().encode(output[0].parts[0].content.replace(/…$/, '')).length).toBeLessThanOrEqual(
      16,
    );
    expect(turn.content.startsWith(output[0].parts[0].content.replace(/…$/, ''))).toBe(true);
    expect(span.attributes['convo.content.truncated']).toBe(true);
    const text = await exported(meter);
    for (const secret of [TOKEN, 'Bearer', stream.idempotencyKey]) expect(text).not.toContain(secret);
  });

  it('captureContent: true keeps a short prompt whole, unmarked', async () => {
    const { client } = tracedClient({ telemetry: { captureContent: true } });
    const chatId = await newChat(client);
    await client.turns.send(chatId, { content: 'héllo' });
    const span = otel.span('turns.send');
    expect(JSON.parse(span.attributes['gen_ai.input.messages'] as string)[0].parts[0].content).toBe('héllo');
    expect(span.attributes).not.toHaveProperty('convo.content.truncated');
  });

  it('a cut never splits a character', async () => {
    const { client } = tracedClient({ telemetry: { captureContent: { maxBytes: 2 } } });
    const chatId = await newChat(client);
    await client.turns.send(chatId, { content: 'aé' }).catch(() => {});
    const span = otel.span('turns.send');
    expect(JSON.parse(span.attributes['gen_ai.input.messages'] as string)[0].parts[0].content).toBe('a…');
  });
});

describe('the telemetry option', () => {
  it.each([
    [{ telemetry: 'on' }, 'telemetry'],
    [{ telemetry: { tracerProvider: {} } }, 'telemetry.tracerProvider'],
    [{ telemetry: { meterProvider: { getMeter: 1 } } }, 'telemetry.meterProvider'],
    [{ telemetry: { propagate: 'yes' } }, 'telemetry.propagate'],
    [{ telemetry: { captureContent: { maxBytes: 0 } } }, 'telemetry.captureContent'],
    [{ telemetry: { captureContent: { maxBytes: 1_048_577 } } }, 'telemetry.captureContent'],
    [{ telemetry: { captureContent: { maxBytes: 1.5 } } }, 'telemetry.captureContent'],
    [{ telemetry: { captureContent: 'all' } }, 'telemetry.captureContent'],
  ])('a bad option %j is a ValidationError naming %s, before anything is sent', (options, field) => {
    let sent = 0;
    const make = () =>
      new Client({
        baseUrl: server.url,
        token: TOKEN,
        fetch: () => {
          sent++;
          return Promise.reject(new Error('sent'));
        },
        ...(options as ClientOptions),
      });
    expect(make).toThrow(ValidationError);
    try {
      make();
    } catch (error) {
      expect((error as ValidationError).issues[0]?.field).toBe(field);
    }
    expect(sent).toBe(0);
  });

  it('accepts the largest captureContent bound and a real provider', () => {
    expect(
      () =>
        new Client({
          baseUrl: server.url,
          token: TOKEN,
          telemetry: { tracerProvider: otel.tracerProvider, captureContent: { maxBytes: 1_048_576 } },
        }),
    ).not.toThrow();
  });
});
