import { Chat } from '@ai-sdk/react';
import { lastAssistantMessageIsCompleteWithApprovalResponses } from 'ai';
import { describe, expect, it } from 'vitest';
import {
  ConvoChatTransport,
  type ConvoChatTransportOptions,
  type ConvoUIMessage,
  messageText,
} from '../../src/ai/index.js';
import { Client } from '../../src/index.js';
import { createMock } from '../../src/mock/index.js';

/** A mock, a client on it, a chat of the service, and the AI SDK's own `Chat` over the transport. */
async function setup(options: Omit<ConvoChatTransportOptions, 'client'> = {}) {
  const mock = createMock();
  /** The streaming sends, by key. */
  const sends: string[] = [];
  const fetch: typeof mock.fetch = (input, init) => {
    const request = new Request(input, init);
    if (request.url.endsWith('/messages/stream')) sends.push(request.headers.get('idempotency-key') ?? '');
    return mock.fetch(request);
  };
  const client = new Client({
    baseUrl: mock.url,
    token: 'mock-token',
    fetch,
    retryDelay: { min: 1, max: 5 },
  });
  const { id } = await client.chats.create({});
  const transport = new ConvoChatTransport({ client, ...options });
  const chat = new Chat<ConvoUIMessage>({
    id,
    transport,
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
  });
  const last = () => chat.messages.at(-1) as ConvoUIMessage;
  /** The saved turn the last message shows. */
  const saved = () => {
    const turnId = last().metadata?.convo?.turnId;
    return mock.store.turns().find((turn) => turn.id === turnId);
  };
  return { mock, client, transport, chat, last, saved, sends };
}

async function until(check: () => boolean, what: string, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('ConvoChatTransport under the AI SDK Chat', () => {
  it('6 text: the text parts joined are the saved content, and the turn id and usage are message metadata', async () => {
    const { chat, last, saved } = await setup();
    await chat.sendMessage({ text: '[[mock:words n=6]] hello' });
    expect(chat.status).toBe('ready');
    const message = last();
    expect(message.role).toBe('assistant');
    const plain = message.parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
    expect(plain).toBe(saved()?.content);
    expect(messageText(message)).toBe(plain);
    expect(message.metadata?.convo).toMatchObject({
      status: 'completed',
      usage: { total_tokens: expect.any(Number) },
    });
  });

  it('6 replace: after a failover messageText is exactly the saved content, and the discarded text is marked', async () => {
    const { chat, last, saved } = await setup();
    await chat.sendMessage({ text: '[[mock:failover]] tell me' });
    const message = last();
    expect(message.parts.some((part) => part.type === 'data-convo-replace')).toBe(true);
    const turn = saved();
    expect(turn?.status).toBe('completed');
    expect(messageText(message)).toBe(turn?.content);
    // The plain text parts still hold what the service discarded: a UI shows messageText.
    const plain = message.parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
    expect(plain).not.toBe(turn?.content);
  });

  it('2.6 tool approval: addToolApprovalResponse answers approve-tool and the same assistant message continues', async () => {
    const { chat, last, saved, sends } = await setup();
    await chat.sendMessage({ text: '[[mock:tool_approval]] find the report' });
    expect(chat.status).toBe('ready');
    const asking = last().parts.find((part) => part.type === 'dynamic-tool');
    expect(asking).toMatchObject({ toolName: 'search', toolCallId: 'toolu_1', state: 'approval-requested' });
    if (asking?.type !== 'dynamic-tool' || asking.state !== 'approval-requested')
      throw new Error('no approval');
    const messageId = last().id;
    await chat.addToolApprovalResponse({ id: asking.approval.id, approved: true });
    await until(() => last().metadata?.convo?.status === 'completed', 'the turn to complete');
    await until(() => chat.status === 'ready', 'the chat to be ready');
    expect(chat.messages).toHaveLength(2);
    expect(last().id).toBe(messageId);
    const tool = last().parts.find((part) => part.type === 'dynamic-tool');
    expect(tool).toMatchObject({ state: 'output-available', output: { status: 'completed' } });
    expect(messageText(last())).toBe(saved()?.content);
    // The read that paused at the approval goes on: one send, the rest streamed live.
    expect(sends).toHaveLength(1);
  });

  it('2.6 tool approval rejected: the tool part is denied and the turn completes', async () => {
    const { chat, last, saved } = await setup();
    await chat.sendMessage({ text: '[[mock:tool_approval]] find it' });
    const asking = last().parts.find((part) => part.type === 'dynamic-tool');
    if (asking?.type !== 'dynamic-tool' || asking.state !== 'approval-requested')
      throw new Error('no approval');
    await chat.addToolApprovalResponse({ id: asking.approval.id, approved: false });
    await until(() => last().metadata?.convo?.status === 'completed', 'the turn to complete');
    expect(last().parts.find((part) => part.type === 'dynamic-tool')).toMatchObject({
      state: 'output-denied',
    });
    expect(saved()?.steps.some((step) => step.tool_calls?.length)).toBe(false);
    expect(messageText(last())).toBe(saved()?.content);
  });

  it('2.6 tool approval continued by another transport (a server restarted): the message carries the key and fields', async () => {
    const mock = createMock();
    const client = new Client({ baseUrl: mock.url, token: 'mock-token', fetch: mock.fetch });
    const { id } = await client.chats.create({});
    let current = new ConvoChatTransport({ client, turn: { metadata: { app: 'first' } } });
    const chat = new Chat<ConvoUIMessage>({
      id,
      transport: {
        sendMessages: (options) => current.sendMessages(options),
        reconnectToStream: (options) => current.reconnectToStream(options),
      },
      sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
    });
    const last = () => chat.messages.at(-1) as ConvoUIMessage;
    await chat.sendMessage({ text: '[[mock:tool_approval]] again' });
    expect(last().metadata?.convo?.fields).toEqual({ metadata: { app: 'first' } });
    current = new ConvoChatTransport({ client });
    const asking = last().parts.find((part) => part.type === 'dynamic-tool');
    if (asking?.type !== 'dynamic-tool' || asking.state !== 'approval-requested')
      throw new Error('no approval');
    await chat.addToolApprovalResponse({ id: asking.approval.id, approved: true });
    await until(() => last().metadata?.convo?.status === 'completed', 'the turn to complete');
    const key = last().metadata?.convo?.idempotencyKey as string;
    expect(mock.runs(key)).toBe(1);
    const turn = mock.store.turns().find((t) => t.id === last().metadata?.convo?.turnId);
    expect(messageText(last())).toBe(turn?.content);
  });

  it('2.6 elicitation: a data part the UI answers with transport.answer, in the same message', async () => {
    const { chat, last, saved, transport } = await setup();
    const sent = chat.sendMessage({ text: '[[mock:elicitation]] sign me up' });
    await until(
      () => last()?.parts.some((part) => part.type === 'data-convo-interaction'),
      'the elicitation',
    );
    const part = last().parts.find((p) => p.type === 'data-convo-interaction');
    if (part?.type !== 'data-convo-interaction' || part.data.kind !== 'elicitation')
      throw new Error('no elicitation');
    expect(part.data.payload.requested_schema).toMatchObject({ required: ['email'] });
    await transport.answer(part.data, { action: 'accept', content: { email: 'ada@example.com' } });
    await sent;
    expect(last().parts.find((p) => p.type === 'data-convo-interaction')).toMatchObject({
      data: { status: 'resolved' },
    });
    expect(last().metadata?.convo?.status).toBe('completed');
    expect(messageText(last())).toBe(saved()?.content);
  });

  it("4.6 stop: the chat's stop() cancels the turn on the service", async () => {
    const { chat, last, saved } = await setup();
    const sent = chat.sendMessage({ text: '[[mock:hang]]' });
    await until(() => last()?.metadata?.convo?.turnId !== undefined, 'the turn to start');
    await chat.stop();
    await sent;
    await until(() => saved()?.status === 'cancelled', 'the turn to be cancelled');
    expect(chat.status).toBe('ready');
  });

  it('4.6 stop with stop: "abort" only stops reading: the turn goes on', async () => {
    const { chat, last, saved } = await setup({ stop: 'abort' });
    const sent = chat.sendMessage({ text: '[[mock:hang]]' });
    await until(() => last()?.metadata?.convo?.turnId !== undefined, 'the turn to start');
    await chat.stop();
    await sent;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(saved()?.status).toBe('pending');
  });

  it('7.4 a dropped stream fails the chat; resumeStream reads the turn again by its key, into the same message', async () => {
    const { chat, last, saved, mock } = await setup({ stream: { maxResumes: 0 } });
    mock.faults.add({ route: 'stream', cutAfterEvents: 4 });
    await chat.sendMessage({ text: '[[mock:words n=8]] go' });
    expect(chat.status).toBe('error');
    const messageId = last().id;
    await chat.resumeStream();
    expect(chat.status).toBe('ready');
    expect(chat.messages).toHaveLength(2);
    expect(last().id).toBe(messageId);
    expect(messageText(last())).toBe(saved()?.content);
    expect(last().metadata?.convo?.status).toBe('completed');
  });

  it('7.4 a cut the turn stream resumes by itself never reaches the chat', async () => {
    const { chat, last, saved, mock } = await setup();
    mock.faults.add({ route: 'stream', cutAfterEvents: 4 });
    await chat.sendMessage({ text: '[[mock:words n=8]] go' });
    expect(chat.status).toBe('ready');
    expect(messageText(last())).toBe(saved()?.content);
  });

  it('6 message.error: the chat gets the error with its code, and the code is message metadata', async () => {
    const { chat, last } = await setup();
    await chat.sendMessage({ text: '[[mock:error code=upstream_error]]' });
    expect(chat.status).toBe('error');
    expect(chat.error?.message).toMatch(/^upstream_error: /);
    expect(last().metadata?.convo?.error).toMatchObject({
      code: 'upstream_error',
      retryable: expect.any(Boolean),
    });
  });

  it('4.4 an ApiError of the send is an error chunk with its code, and the code is message metadata', async () => {
    const { chat, last, mock } = await setup();
    mock.faults.add({ route: 'stream', respond: { status: 403, code: 'insufficient_scope' } });
    await chat.sendMessage({ text: 'hello' });
    expect(chat.status).toBe('error');
    expect(chat.error?.message).toMatch(/^insufficient_scope: /);
    expect(last().metadata?.convo?.error).toMatchObject({ code: 'insufficient_scope' });
  });

  it("a bad chat id fails with the ValidationError's name and field, nothing sent", async () => {
    const mock = createMock();
    const client = new Client({ baseUrl: mock.url, token: 'mock-token', fetch: mock.fetch });
    const chat = new Chat<ConvoUIMessage>({
      id: 'not-a-chat',
      transport: new ConvoChatTransport({ client }),
    });
    await chat.sendMessage({ text: 'hello' });
    expect(chat.status).toBe('error');
    expect(chat.error?.message).toMatch(/^ValidationError: /);
    expect(mock.store.turns()).toHaveLength(0);
  });

  it('regenerate sends the prompt again under a new key, replacing the answer', async () => {
    const { chat, last, mock } = await setup();
    await chat.sendMessage({ text: 'hello there' });
    const first = last().metadata?.convo?.idempotencyKey;
    await chat.regenerate();
    expect(chat.messages).toHaveLength(2);
    const second = last().metadata?.convo?.idempotencyKey;
    expect(second).not.toBe(first);
    expect(mock.runs(second as string)).toBe(1);
    expect(mock.store.turns()).toHaveLength(2);
  });

  it("4.4 the transport's turn fields and a request's body reach the turn", async () => {
    const { chat, saved } = await setup({ turn: { metadata: { from: 'transport' }, model_id: 1 } });
    await chat.sendMessage({ text: 'hi' }, { body: { metadata: { from: 'request' }, other: 'ignored' } });
    expect(saved()?.metadata).toEqual({ from: 'request' });
  });
});
