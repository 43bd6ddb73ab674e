import * as api from '@opentelemetry/api';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  AlwaysOffSampler,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { redactorOf } from '../../src/contract/redact.js';
import type { TelemetryOptions } from '../../src/telemetry/options.js';
import { Telemetry } from '../../src/telemetry/otel.js';
import { freshMeters } from '../telemetry/meters.js';

// The recorder (telemetry/otel.ts) driven directly, with the real SDK given as options (nothing global):
// what each span, event and metric holds, edge by edge.
const BASE = new URL('http://127.0.0.1:8080/api/v1/');
const meters: Array<ReturnType<typeof freshMeters>> = [];
afterEach(async () => {
  for (const meter of meters.splice(0)) await meter.shutdown();
});
// An async context, as the Node SDK registers one: what a span makes active is seen by what it runs.
beforeAll(() => {
  api.context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
});
afterAll(() => {
  api.context.disable();
});

function recorder(options: TelemetryOptions = {}, base = BASE, secret = 'tok_recorder_secret') {
  const spans = new InMemorySpanExporter();
  const tracerProvider = new TracerProvider({
    spanProcessors: [new SimpleSpanProcessor({ exporter: spans })],
  });
  const meter = freshMeters();
  meters.push(meter);
  const telemetry = new Telemetry(
    { tracerProvider, meterProvider: meter.meterProvider, ...options },
    base,
    redactorOf([secret]),
  );
  const only = (): ReadableSpan => {
    const [span, more] = spans.getFinishedSpans();
    if (!span || more) throw new Error(`${spans.getFinishedSpans().length} spans`);
    return span;
  };
  return { telemetry, spans, meter, only };
}

const info = { name: 'chats.get', method: 'GET', path: 'chats/c1', chatId: 'c1' };

/** A source of event batches, and whether it was closed. */
function source(batches: Array<Array<Record<string, unknown> & { type: string }>>, fail?: Error) {
  const state = { returned: false };
  async function* events() {
    try {
      for (const batch of batches) yield batch;
      if (fail) throw fail;
    } finally {
      state.returned = true;
    }
  }
  return { iterator: events(), state };
}

const usage = { prompt_tokens: 7, completion_tokens: 11, total_tokens: 18, model: 'm-large', provider: 'p' };

describe('the span of a call', () => {
  it("server.port: the URL's, else 443 for https and 80 for http", () => {
    for (const [base, port] of [
      ['https://api.example.com/api/v1/', 443],
      ['http://api.example.com/api/v1/', 80],
      ['http://api.example.com:9/api/v1/', 9],
    ] as const) {
      const { telemetry, only } = recorder({}, new URL(base));
      telemetry.call(info).end();
      expect(only().attributes['server.port']).toBe(port);
    }
  });

  it('url.full is masked by the redactor; a call without a model or chat names neither', () => {
    const { telemetry, only } = recorder({}, BASE, 'tok_in_the_path');
    telemetry.call({ name: 'skills.list', method: 'GET', path: 'skills?q=tok_in_the_path' }).end();
    const span = only();
    expect(span.attributes['url.full']).toBe('http://127.0.0.1:8080/api/v1/skills?q=[redacted]');
    expect(span.attributes).not.toHaveProperty('gen_ai.request.model');
    expect(span.attributes).not.toHaveProperty('gen_ai.conversation.id');
    expect(span.attributes['gen_ai.operation.name']).toBe('skills.list');
    expect(span.kind).toBe(SpanKind.CLIENT);
  });

  it('a turn endpoint is the chat operation, with its model as text', () => {
    const { telemetry, only } = recorder();
    telemetry.call({ ...info, name: 'turns.send', body: { content: 'x', model_id: 3 } }).end();
    expect(only().attributes).toMatchObject({ 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': '3' });
  });

  it('error.type: a code, else the class name, else _OTHER; the status code only when positive', () => {
    const cases: Array<[unknown, string, number | undefined]> = [
      [Object.assign(new Error('x'), { code: 'api_v1_busy', status: 409 }), 'api_v1_busy', 409],
      [Object.assign(new TypeError('x'), { code: '' }), 'TypeError', undefined],
      [Object.assign(new RangeError('x'), { status: 0 }), 'RangeError', undefined],
      [Object.assign(new Error('x'), { name: '' }), 'Error', undefined],
      ['a string', '_OTHER', undefined],
    ];
    for (const [error, type, status] of cases) {
      const { telemetry, only } = recorder();
      telemetry.call(info).end(error);
      const span = only();
      expect(span.attributes['error.type']).toBe(type);
      expect(span.attributes['http.response.status_code']).toBe(status);
      expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: type });
    }
  });

  it('ends once; a resend counts from the second attempt, each in the retries counter', async () => {
    const { telemetry, only, meter } = recorder();
    const call = telemetry.call(info);
    call.attempt(1);
    call.status(503);
    call.attempt(2);
    call.attempt(3);
    call.status(200);
    call.end();
    call.end(new Error('late'));
    const span = only();
    expect(span.attributes['http.request.resend_count']).toBe(2);
    expect(span.attributes['http.response.status_code']).toBe(200);
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    expect((await meter.points('convo.client.retries')).map((p) => p.value)).toEqual([2]);
    expect(
      (await meter.points('gen_ai.client.operation.duration')).map(
        (p) => (p.value as { count: number }).count,
      ),
    ).toEqual([1]);
  });

  it('a turn result: its usage on the span and in the token histogram; content only when captured', async () => {
    const { telemetry, only, meter } = recorder();
    telemetry.call({ ...info, name: 'turns.send', body: { content: 'secret prompt' } }).end(undefined, {
      usage,
      content: 'secret answer',
    });
    const span = only();
    expect(span.attributes).toMatchObject({
      'gen_ai.usage.input_tokens': 7,
      'gen_ai.usage.output_tokens': 11,
      'gen_ai.response.model': 'm-large',
    });
    expect(JSON.stringify(span.attributes)).not.toContain('secret');
    const tokens = await meter.points('gen_ai.client.token.usage');
    expect(tokens.map((p) => [p.attributes['gen_ai.token.type'], (p.value as { sum: number }).sum])).toEqual([
      ['input', 7],
      ['output', 11],
    ]);
    expect(tokens[0]?.attributes['gen_ai.response.model']).toBe('m-large');
  });

  it('a usage without numbers or model records none of them', async () => {
    const { telemetry, only, meter } = recorder();
    telemetry.call(info).end(undefined, { usage: { model: 7 } });
    expect(Object.keys(only().attributes).filter((key) => key.startsWith('gen_ai.usage'))).toEqual([]);
    expect(only().attributes).not.toHaveProperty('gen_ai.response.model');
    expect(await meter.points('gen_ai.client.token.usage')).toEqual([]);
  });

  it('the instruments: names, units and descriptions', async () => {
    const { telemetry, meter } = recorder();
    const call = telemetry.call(info);
    call.attempt(2);
    call.end(undefined, { usage });
    const turn = telemetry.turn({ ...info, name: 'turns.stream' }, undefined);
    for await (const _ of turn.observe(
      source([[{ type: 'delta' }, { type: 'resumed', attempt: 1, reason: 'r' }]]).iterator,
    ));
    const descriptors = (await meter.all()).map((metric) => [
      metric.descriptor.name,
      metric.descriptor.unit,
      metric.descriptor.description,
    ]);
    expect(descriptors.sort()).toEqual(
      [
        ['convo.client.retries', '{request}', 'Requests sent again after a failed attempt'],
        ['convo.client.stream.resumes', '{resume}', 'Broken turn streams re-opened with their key'],
        [
          'gen_ai.client.operation.duration',
          's',
          'Duration of a call of the service, a streamed turn until its stream ended',
        ],
        [
          'gen_ai.client.operation.time_to_first_chunk',
          's',
          'Time from a streamed turn being sent to its first text delta',
        ],
        ['gen_ai.client.token.usage', '{token}', 'Tokens a turn used, by gen_ai.token.type'],
      ].sort(),
    );
  });
});

describe('content', () => {
  it('a text of exactly maxBytes is kept whole, one byte more is cut and marked', () => {
    for (const [text, kept, cut] of [
      ['abcd', 'abcd', false],
      ['abcde', 'abcd…', true],
    ] as const) {
      const { telemetry, only } = recorder({ captureContent: { maxBytes: 4 } });
      telemetry.call({ ...info, body: { content: text } }).end();
      const span = only();
      expect(JSON.parse(span.attributes['gen_ai.input.messages'] as string)).toEqual([
        { role: 'user', parts: [{ type: 'text', content: kept }] },
      ]);
      expect(span.attributes['convo.content.truncated']).toBe(cut ? true : undefined);
    }
  });

  it('captureContent: true keeps 8,192 bytes; a body without text content records none', () => {
    const { telemetry, spans } = recorder({ captureContent: true });
    telemetry.call({ ...info, body: { content: 'x'.repeat(8_193) } }).end();
    telemetry.call({ ...info, body: { content: 42 } }).end();
    const [long, none] = spans.getFinishedSpans();
    const content = JSON.parse(long?.attributes['gen_ai.input.messages'] as string)[0].parts[0].content;
    expect(content).toBe(`${'x'.repeat(8_192)}…`);
    expect(none?.attributes).not.toHaveProperty('gen_ai.input.messages');
  });

  it('an answer cut short is marked, with its finish reason', () => {
    const { telemetry, only } = recorder({ captureContent: { maxBytes: 3 } });
    telemetry.call(info).end(undefined, { content: 'abcdef' });
    const span = only();
    expect(JSON.parse(span.attributes['gen_ai.output.messages'] as string)).toEqual([
      { role: 'assistant', parts: [{ type: 'text', content: 'abc…' }], finish_reason: 'stop' },
    ]);
    expect(span.attributes['convo.content.truncated']).toBe(true);
  });
});

describe('propagation', () => {
  it('without a registered propagator, the W3C header is written here: sampled 01, unsampled 00, tracestate kept', () => {
    const { telemetry } = recorder();
    const call = telemetry.call(info);
    const { traceId, spanId } = call.span.spanContext();
    expect(call.headers({ 'idempotency-key': 'k' })).toEqual({
      'idempotency-key': 'k',
      traceparent: `00-${traceId}-${spanId}-01`,
    });
    call.end();
    const off = new Telemetry(
      { tracerProvider: new TracerProvider({ sampler: new AlwaysOffSampler() }) },
      BASE,
      redactorOf([]),
    );
    const parent = api.trace.setSpanContext(api.context.active(), {
      traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
      spanId: '00f067aa0ba902b7',
      traceFlags: 0,
      traceState: {
        serialize: () => 'v=1',
        get: () => undefined,
        set: (() => {}) as never,
        unset: (() => {}) as never,
      },
    });
    const unsampled = api.context.with(parent, () => off.call(info));
    const headers = unsampled.headers(undefined);
    expect(headers?.traceparent).toMatch(/^00-4bf92f3577b34da6a3ce929d0e0e4736-[0-9a-f]{16}-00$/);
    expect(headers?.tracestate).toBe('v=1');
  });

  it('propagate: false hands the headers back as they are', () => {
    const { telemetry } = recorder({ propagate: false });
    const own = { a: 'b' };
    expect(telemetry.call(info).headers(own)).toBe(own);
    expect(telemetry.propagates).toBe(false);
    expect(recorder({ propagate: true }).telemetry.propagates).toBe(true);
    expect(recorder().telemetry.propagates).toBe(true);
  });
});

describe('a streamed turn', () => {
  const stream = { ...info, name: 'turns.stream', method: 'POST', path: 'chats/c1/messages/stream' };

  it('events: start, the first delta only, resumes, interactions; the terminal event ends it with the turn', async () => {
    const { telemetry, only, meter } = recorder({ captureContent: true });
    const turn = telemetry.turn(stream, undefined);
    const { iterator, state } = source([
      [{ type: 'start', message_id: 9 }],
      [{ type: 'delta' }, { type: 'delta' }],
      [{ type: 'resumed', attempt: 1, reason: 'cut' }],
      [{ type: 'action_required', interaction: { kind: 'plan_approval', action_id: 'a1' } }],
      [{ type: 'cancelled', turn: { usage, content: 'partial' } }],
    ]);
    const seen = [];
    for await (const batch of turn.observe(iterator)) seen.push(...batch);
    expect(seen).toHaveLength(6);
    expect(state.returned).toBe(true);
    const span = only();
    expect(span.attributes).toMatchObject({
      'gen_ai.response.id': '9',
      'gen_ai.response.finish_reasons': ['cancelled'],
      'convo.turn.outcome': 'cancelled',
      'convo.stream.resumes': 1,
      'gen_ai.usage.input_tokens': 7,
    });
    expect(JSON.parse(span.attributes['gen_ai.output.messages'] as string)[0].finish_reason).toBe(
      'cancelled',
    );
    expect(span.events.map((e) => [e.name, e.attributes])).toEqual([
      ['convo.stream.resumed', { 'convo.stream.resume.attempt': 1, 'convo.stream.resume.reason': 'cut' }],
      ['convo.interaction.raised', { 'convo.interaction.kind': 'plan_approval', 'convo.action.id': 'a1' }],
    ]);
    expect((await meter.points('gen_ai.client.operation.time_to_first_chunk'))[0]?.value).toMatchObject({
      count: 1,
    });
    expect((await meter.points('convo.client.stream.resumes'))[0]?.value).toBe(1);
  });

  it('completed: finish reason stop; error: status ERROR with its code, or "error" without one', async () => {
    for (const [end, outcome, type] of [
      [{ type: 'completed', turn: { content: 'done' } }, 'completed', undefined],
      [{ type: 'error', error: { code: 'upstream_error' } }, 'error', 'upstream_error'],
      [{ type: 'error', error: {} }, 'error', 'error'],
    ] as const) {
      const { telemetry, only } = recorder({ captureContent: true });
      const turn = telemetry.turn(stream, undefined);
      for await (const _ of turn.observe(source([[end]]).iterator));
      const span = only();
      expect(span.attributes['convo.turn.outcome']).toBe(outcome);
      expect(span.attributes['error.type']).toBe(type);
      expect(span.status.code).toBe(type ? SpanStatusCode.ERROR : SpanStatusCode.UNSET);
      if (!type)
        expect(JSON.parse(span.attributes['gen_ai.output.messages'] as string)[0].finish_reason).toBe('stop');
    }
  });

  it('a reader that leaves closes the source and the span (stopped); a failing source ends it failed', async () => {
    const { telemetry, spans } = recorder();
    const left = source([[{ type: 'start', message_id: 1 }], [{ type: 'delta' }]]);
    for await (const _ of telemetry.turn(stream, undefined).observe(left.iterator)) break;
    expect(left.state.returned).toBe(true);
    const failing = source([[{ type: 'start', message_id: 1 }]], new TypeError('broken'));
    await expect(
      (async () => {
        for await (const _ of telemetry.turn(stream, undefined).observe(failing.iterator));
      })(),
    ).rejects.toThrow('broken');
    const [stopped, failed] = spans.getFinishedSpans();
    expect(stopped?.attributes['convo.turn.outcome']).toBe('stopped');
    expect(stopped?.status.code).toBe(SpanStatusCode.UNSET);
    expect(failed?.attributes).toMatchObject({ 'convo.turn.outcome': 'failed', 'error.type': 'TypeError' });
  });

  it('an answer is an event with how and after how long, its send inside the span', async () => {
    const { telemetry, only } = recorder();
    const turn = telemetry.turn(stream, undefined);
    const lifetime = 110_000;
    const until = Date.now() + lifetime - 1_000;
    const cases: Array<[string, unknown, string]> = [
      ['tool_approval', { action_id: 'a', decisions: [{ approved: true }, { approved: true }] }, 'approve'],
      ['tool_approval', { action_id: 'a', decisions: [{ approved: true }, { approved: false }] }, 'partial'],
      ['tool_approval', { action_id: 'a', decisions: [{ approved: false }] }, 'reject'],
      ['tool_approval', { action_id: 'a', decisions: [] }, 'reject'],
      ['plan_approval', { action_id: 'a', action: 'approve' }, 'approve'],
      ['elicitation', { action_id: 'a', action: 'decline' }, 'decline'],
      ['auth_required', { action_id: 'a' }, 'cancel'],
      ['auth_required', undefined, 'cancel'],
    ];
    for (const [kind, body] of cases) {
      const active = await turn.answer(
        kind,
        body,
        until,
        lifetime,
        async () => api.trace.getSpan(api.context.active())?.spanContext().spanId,
      );
      expect(active).toBe(turn.span.spanContext().spanId);
    }
    turn.close({ outcome: 'stopped' });
    const events = only().events;
    expect(events.map((e) => e.attributes?.['convo.interaction.answer'])).toEqual(
      cases.map(([, , answer]) => answer),
    );
    expect(events[0]?.attributes).toMatchObject({
      'convo.interaction.kind': 'tool_approval',
      'convo.action.id': 'a',
    });
    expect(events.at(-1)?.attributes).not.toHaveProperty('convo.action.id');
    const waited = events[0]?.attributes?.['convo.interaction.wait_ms'] as number;
    expect(waited).toBeGreaterThanOrEqual(1_000);
    expect(waited).toBeLessThan(60_000);
    const early = recorder().telemetry.turn(stream, undefined);
    await early.answer(
      'elicitation',
      { action: 'accept' },
      Date.now() + 2 * lifetime,
      lifetime,
      async () => 0,
    );
    early.close({ outcome: 'stopped' });
  });

  it('an answer received in the future waits 0, never less', async () => {
    const { telemetry, only } = recorder();
    const turn = telemetry.turn(stream, undefined);
    await turn.answer('elicitation', { action: 'accept' }, Date.now() + 500_000, 110_000, async () => 0);
    turn.close({ outcome: 'stopped' });
    expect(only().events[0]?.attributes?.['convo.interaction.wait_ms']).toBe(0);
  });

  it('close ends the span once; an error closes it failed', () => {
    const { telemetry, spans } = recorder();
    const turn = telemetry.turn(stream, {});
    turn.close({ error: new RangeError('x') });
    turn.close({ outcome: 'abandoned' });
    const [span, more] = spans.getFinishedSpans();
    expect(more).toBeUndefined();
    expect(span?.attributes).toMatchObject({
      'convo.turn.outcome': 'failed',
      'error.type': 'RangeError',
      'convo.stream.resumes': 0,
    });
  });
});

describe('the handler loop', () => {
  it('an INTERNAL span, active inside; a failure marks it and is thrown', async () => {
    const { telemetry, spans } = recorder();
    const inside = await telemetry.within(
      { name: 'turns.run', chatId: 'c9' },
      async () => api.trace.getSpan(api.context.active())?.spanContext().spanId,
    );
    await expect(
      telemetry.within({ name: 'turns.run', chatId: 'c9' }, async () => {
        throw new SyntaxError('handler');
      }),
    ).rejects.toThrow('handler');
    const [ok, failed] = spans.getFinishedSpans();
    expect(ok?.spanContext().spanId).toBe(inside);
    expect(ok?.kind).toBe(SpanKind.INTERNAL);
    expect(ok?.attributes).toMatchObject({ 'gen_ai.conversation.id': 'c9', 'convo.endpoint': 'turns.run' });
    expect(ok?.status.code).toBe(SpanStatusCode.UNSET);
    expect(failed?.attributes['error.type']).toBe('SyntaxError');
    expect(failed?.status.code).toBe(SpanStatusCode.ERROR);
  });
});
