import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { ConvoChatTransport, type ConvoUIMessage } from '../../src/ai/index.js';
import { transportSpan } from '../../src/ai/transport-spans.js';
import { Client } from '../../src/index.js';
import { useMockServer } from '../support/mock-server.js';
import { useOtel } from '../telemetry/otel.js';
import { installedChat, setupChat, until } from './chat-support.js';

// Issue 38 item 5: ConvoChatTransport's calls are spans when a tracer provider is registered (the real SDK,
// the mock over loopback): the client's spans of the call are their children, and each ends with its stream.
const otel = useOtel();
const server = useMockServer();

const user = (text: string): ConvoUIMessage => ({ id: 'u1', role: 'user', parts: [{ type: 'text', text }] });

async function setup() {
  const client = new Client({ baseUrl: server.url, token: 'mock-token' });
  const chat = await client.chats.create({ name: 'transport spans' });
  return { client, chatId: chat.id, transport: new ConvoChatTransport({ client }) };
}

const send = (transport: ConvoChatTransport, chatId: string, text: string) =>
  transport.sendMessages({
    chatId,
    messages: [user(text)],
    trigger: 'submit-message',
    messageId: undefined,
    abortSignal: undefined,
  });

async function drain(stream: ReadableStream<unknown>): Promise<unknown[]> {
  const chunks: unknown[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

describe('ConvoChatTransport spans', () => {
  it("a send is an INTERNAL span chat.transport.send, ended with its stream, the turn's span its child", async () => {
    const { chatId, transport } = await setup();
    const stream = await send(transport, chatId, 'Hello');
    expect(otel.finished().some((span) => span.name === 'chat.transport.send')).toBe(false);
    const chunks = await drain(stream);
    expect(chunks.at(-1)).toMatchObject({ type: 'finish' });
    const span = otel.span('chat.transport.send');
    expect(span.kind).toBe(SpanKind.INTERNAL);
    expect(span.attributes).toEqual({
      'gen_ai.conversation.id': chatId,
      'convo.transport.trigger': 'submit-message',
    });
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    const turn = otel.span('turns.stream');
    expect(turn.parentSpanContext?.spanId).toBe(span.spanContext().spanId);
    expect(turn.spanContext().traceId).toBe(span.spanContext().traceId);
  });

  it("the span is a child of the caller's active span", async () => {
    const { chatId, transport } = await setup();
    const page = otel.tracerProvider.getTracer('page').startSpan('page');
    const stream = await context.with(trace.setSpan(context.active(), page), () =>
      send(transport, chatId, 'Hello'),
    );
    await drain(stream);
    page.end();
    const span = otel.span('chat.transport.send');
    expect(span.parentSpanContext?.spanId).toBe(page.spanContext().spanId);
  });

  it('a cancelled read ends the span, marked cancelled, and stops the turn', async () => {
    const { chatId, transport } = await setup();
    const stream = await send(transport, chatId, '[[mock:hang]]');
    const reader = stream.getReader();
    await reader.read();
    await reader.cancel();
    const span = otel.span('chat.transport.send');
    expect(span.attributes['convo.transport.cancelled']).toBe(true);
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
  });

  it('a resume is chat.transport.resume, trigger resume-stream; a resume of no turn ends it at once', async () => {
    const { chatId, transport } = await setup();
    const reader = (await send(transport, chatId, '[[mock:hang]]')).getReader();
    await reader.read();
    await reader.cancel();
    const again = await transport.reconnectToStream({ chatId });
    if (!again) throw new Error('no record of the turn');
    await drain(again);
    const span = otel.span('chat.transport.resume');
    expect(span.kind).toBe(SpanKind.INTERNAL);
    expect(span.attributes).toEqual({
      'gen_ai.conversation.id': chatId,
      'convo.transport.trigger': 'resume-stream',
    });
    const turns = otel.finished().filter((s) => s.name === 'turns.stream');
    expect(turns.at(-1)?.parentSpanContext?.spanId).toBe(span.spanContext().spanId);
    otel.reset();
    expect(await transport.reconnectToStream({ chatId: crypto.randomUUID() })).toBeNull();
    expect(otel.span('chat.transport.resume').attributes['convo.transport.trigger']).toBe('resume-stream');
  });

  it('a turn that ends in an error chunk: status ERROR, error.type its code', async () => {
    const { chatId, transport } = await setup();
    const chunks = await drain(await send(transport, chatId, '[[mock:error code=upstream_error]]'));
    expect(chunks.some((chunk) => (chunk as { type: string }).type === 'error')).toBe(true);
    const span = otel.span('chat.transport.send');
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: 'upstream_error' });
    expect(span.attributes['error.type']).toBe('upstream_error');
  });

  it('a refused call: status ERROR, error.type the error class; an id longer than a UUID is left out', async () => {
    const { transport } = await setup();
    await expect(send(transport, 'x'.repeat(37), 'Hello')).rejects.toThrow('chat_id');
    const span = otel.span('chat.transport.send');
    expect(span.attributes).toEqual({
      'convo.transport.trigger': 'submit-message',
      'error.type': 'ValidationError',
    });
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
  });

  async function approve(maxPausedReads?: number) {
    const { chat, last } = await setupChat(installedChat, { maxPausedReads });
    otel.reset();
    await chat.sendMessage({ text: '[[mock:tool_approval]] find it' });
    const asking = last().parts.find((part) => part.type === 'dynamic-tool');
    if (asking?.type !== 'dynamic-tool' || asking.state !== 'approval-requested')
      throw new Error('no approval');
    await chat.addToolApprovalResponse({ id: asking.approval.id, approved: true });
    await until(() => last().metadata?.convo?.status === 'completed', 'the turn to complete');
    const sends = () => otel.finished().filter((span) => span.name === 'chat.transport.send');
    await until(() => sends().length === 2, 'both sends to end');
    const [first, answer] = sends().map((span) => span.spanContext().spanId);
    const parents = (name: string) =>
      otel
        .finished()
        .filter((span) => span.name === name)
        .map((span) => span.parentSpanContext?.spanId);
    const turns = otel.finished().filter((span) => span.name === 'turns.stream');
    return { first, answer, parents, turns: turns.map((span) => span.spanContext().spanId) };
  }

  it("an approval answered on the read that paused: the decision is the turn's, under the first send", async () => {
    const { first, answer, parents, turns } = await approve();
    expect(answer).not.toBe(first);
    expect(parents('turns.stream')).toEqual([first]);
    expect(parents('actions.approveTool')).toEqual(turns);
  });

  it("an approval answered by key (no read held): the decision and the rest of the turn are the answering send's", async () => {
    const { answer, parents } = await approve(0);
    expect(parents('turns.stream').at(-1)).toBe(answer);
    expect(parents('actions.approveTool')).toEqual([answer]);
  });

  it('with no tracer provider, the call runs as it is and its stream is handed back', async () => {
    trace.disable();
    try {
      const stream = new ReadableStream();
      expect(await transportSpan('send', { chatId: 'c' }, async () => stream)).toBe(stream);
    } finally {
      trace.setGlobalTracerProvider(otel.tracerProvider);
    }
    expect(otel.finished()).toEqual([]);
  });

  it('a regenerated message keeps its trigger', async () => {
    const stream = await transportSpan(
      'send',
      { chatId: 'c', trigger: 'regenerate-message' },
      async () => new ReadableStream({ start: (controller) => controller.close() }),
    );
    expect(await drain(stream)).toEqual([]);
    expect(otel.span('chat.transport.send').attributes['convo.transport.trigger']).toBe('regenerate-message');
  });

  it('a thrown value or a failing stream that is no Error is error.type Error; an unknown trigger is _OTHER', async () => {
    await expect(
      transportSpan('send', { chatId: 'c', trigger: 'other' }, async () => {
        throw 'text';
      }),
    ).rejects.toBe('text');
    const thrown = otel.span('chat.transport.send');
    expect(thrown.attributes).toEqual({
      'gen_ai.conversation.id': 'c',
      'convo.transport.trigger': '_OTHER',
      'error.type': 'Error',
    });
    const broken = await transportSpan(
      'resume',
      { chatId: 'c' },
      async () => new ReadableStream({ pull: (controller) => controller.error(new RangeError('cut')) }),
    );
    await expect(drain(broken)).rejects.toThrow('cut');
    expect(otel.span('chat.transport.resume').attributes['error.type']).toBe('RangeError');
    for (const [errorText, type] of [
      ['no code here', '_OTHER'],
      ['not a_code: here', '_OTHER'],
      [`${'a'.repeat(65)}: long`, '_OTHER'],
      [`${'a'.repeat(64)}: long`, 'a'.repeat(64)],
      ['Api.v1_x: y', 'Api.v1_x'],
    ]) {
      const odd = await transportSpan(
        'resume',
        { chatId: 'c' },
        async () =>
          new ReadableStream({
            start: (controller) => {
              controller.enqueue({ type: 'text-delta', errorText: 'x: y' });
              controller.enqueue({ type: 'error', errorText });
              controller.close();
            },
          }),
      );
      expect(await drain(odd)).toHaveLength(2);
      expect(otel.finished().at(-1)?.attributes['error.type']).toBe(type);
    }
  });
});
