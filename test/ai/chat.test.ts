import { Chat } from '@ai-sdk/react';
import { lastAssistantMessageIsCompleteWithApprovalResponses } from 'ai';
import { describe, expect, it } from 'vitest';
import {
  answerInteraction,
  ConvoChatTransport,
  type ConvoChatTransportOptions,
  type ConvoUIMessage,
  messageText,
  type TurnRecord,
} from '../../src/ai/index.js';
import { Client } from '../../src/index.js';
import { createMock } from '../../src/mock/index.js';
import { installedChat, setupChat, until } from './chat-support.js';

/** A chat over the transport under AI SDK 7; `majors.test.ts` has the Chat tests run under every major. */
const setup = (options: Omit<ConvoChatTransportOptions, 'client'> = {}) => setupChat(installedChat, options);

describe('ConvoChatTransport under the AI SDK Chat', () => {
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

  it("2.6 tool approval continued by another transport (a server restarted): the key from the message, the fields its own, never the browser's", async () => {
    const mock = createMock();
    const bodies: Record<string, unknown>[] = [];
    const fetch: typeof mock.fetch = async (input, init) => {
      const request = new Request(input, init);
      if (request.url.endsWith('/messages/stream')) bodies.push(await request.clone().json());
      return mock.fetch(request);
    };
    const client = new Client({ baseUrl: mock.url, token: 'mock-token', fetch });
    const { id } = await client.chats.create({});
    const fields = { metadata: { app: 'server' }, permission_mode: 'manual' } as const;
    let current = new ConvoChatTransport({ client, turn: fields });
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
    current = new ConvoChatTransport({ client, turn: fields });
    // What a browser could write into the message it posts back.
    Object.assign(last().metadata?.convo ?? {}, {
      fields: { permission_mode: 'auto', model_id: 2, metadata: { app: 'browser' } },
    });
    const asking = last().parts.find((part) => part.type === 'dynamic-tool');
    if (asking?.type !== 'dynamic-tool' || asking.state !== 'approval-requested')
      throw new Error('no approval');
    await chat.addToolApprovalResponse({ id: asking.approval.id, approved: true });
    await until(() => last().metadata?.convo?.status === 'completed', 'the turn to complete');
    const key = last().metadata?.convo?.idempotencyKey as string;
    expect(mock.runs(key)).toBe(1);
    // The re-send by key, then as many more as the 409 in-progress polling takes: each with the server's fields.
    expect(bodies.length).toBeGreaterThanOrEqual(2);
    for (const body of bodies) expect(body).toEqual({ content: '[[mock:tool_approval]] again', ...fields });
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

  it("4.4 the transport's turn fields and a request's body reach the turn; other body keys are ignored", async () => {
    const { chat, saved, bodies } = await setup({
      turn: { metadata: { from: 'transport' }, model_id: 1, permission_mode: 'manual' },
    });
    await chat.sendMessage({ text: 'hi' }, { body: { metadata: { from: 'request' }, other: 'ignored' } });
    expect(saved()?.metadata).toEqual({ from: 'request' });
    expect(bodies[0]).toEqual({
      content: 'hi',
      metadata: { from: 'request' },
      model_id: 1,
      permission_mode: 'manual',
    });
  });

  it("4.4 the transport's permission_mode and model_id reach the turn: auto runs the tool without asking", async () => {
    const { chat, last, saved, bodies } = await setup({ turn: { permission_mode: 'auto', model_id: 2 } });
    await chat.sendMessage({ text: '[[mock:tool_approval]] find it' });
    expect(last().metadata?.convo?.status).toBe('completed');
    expect(
      last().parts.some((part) => part.type === 'dynamic-tool' && part.state !== 'output-available'),
    ).toBe(false);
    expect(saved()?.steps.some((step) => step.tool_calls?.some((call) => call.name === 'search'))).toBe(true);
    expect(bodies[0]).toMatchObject({ permission_mode: 'auto', model_id: 2 });
  });

  it('4.4 a request body overrides model_id and permission_mode', async () => {
    const { chat, last, bodies } = await setup({ turn: { permission_mode: 'auto', model_id: 2 } });
    await chat.sendMessage(
      { text: '[[mock:tool_approval]] find it' },
      { body: { permission_mode: 'manual', model_id: 1 } },
    );
    expect(last().parts.find((part) => part.type === 'dynamic-tool')).toMatchObject({
      state: 'approval-requested',
    });
    expect(bodies[0]).toMatchObject({ permission_mode: 'manual', model_id: 1 });
  });

  it('6 message.step: a step is a data-convo-step part by its key, its tool a tool part with the output', async () => {
    const { chat, last, saved } = await setup({ turn: { permission_mode: 'auto' } });
    await chat.sendMessage({ text: '[[mock:tool_approval]] find it' });
    const steps = last().parts.filter((part) => part.type === 'data-convo-step');
    const turn = saved();
    expect(steps.length).toBeGreaterThan(0);
    expect(steps.map((part) => part.type === 'data-convo-step' && part.id)).toEqual(
      turn?.steps.map((step) => step.key),
    );
    expect(last().parts.find((part) => part.type === 'dynamic-tool')).toMatchObject({
      toolName: 'search',
      state: 'output-available',
      output: { status: expect.any(String) },
    });
  });

  for (const [kind, action] of [
    ['plan_approval', 'approve'],
    ['auth_required', 'cancel'],
  ] as const) {
    it(`2.6 ${kind}: a data part answered with answerInteraction, in the same message`, async () => {
      const { chat, last, saved, client } = await setup();
      const sent = chat.sendMessage({ text: `[[mock:${kind}]] go` });
      await until(() => last()?.parts.some((part) => part.type === 'data-convo-interaction'), kind);
      const part = last().parts.find((p) => p.type === 'data-convo-interaction');
      if (part?.type !== 'data-convo-interaction' || part.data.kind !== kind) throw new Error(`no ${kind}`);
      expect(part.data.status).toBe('pending');
      await answerInteraction(client, part.data, { action } as never);
      await sent;
      expect(last().parts.find((p) => p.type === 'data-convo-interaction')).toMatchObject({
        data: { kind, status: 'resolved' },
      });
      expect(last().metadata?.convo?.status).toBe('completed');
      expect(messageText(last())).toBe(saved()?.content);
    });
  }

  it('a finished turn is forgotten: nothing is left to reconnect to', async () => {
    const { chat, transport } = await setup();
    await chat.sendMessage({ text: 'hello' });
    expect(await transport.reconnectToStream({ chatId: chat.id })).toBeNull();
  });

  it('a turn paused at a tool approval is kept for its continuation', async () => {
    const records = new Map<string, TurnRecord>();
    const { chat } = await setup({ records });
    await chat.sendMessage({ text: '[[mock:tool_approval]] find it' });
    expect(records.get(chat.id)?.body.content).toBe('[[mock:tool_approval]] find it');
  });
});
