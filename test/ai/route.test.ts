import { Chat } from '@ai-sdk/react';
import {
  createUIMessageStreamResponse,
  DefaultChatTransport,
  lastAssistantMessageIsCompleteWithApprovalResponses,
  readUIMessageStream,
} from 'ai';
import { describe, expect, it } from 'vitest';
import {
  ConvoChatTransport,
  type ConvoUIMessage,
  messageText,
  toUIMessageStream,
} from '../../src/ai/index.js';
import { mockClient } from '../support/mock-client.js';

async function setup() {
  const { mock, client } = mockClient();
  const { id } = await client.chats.create({});
  const content = (turnId: number | undefined) =>
    mock.store.turns().find((turn) => turn.id === turnId)?.content;
  return { mock, client, id, content };
}

/** `useChat`'s default transport, posting to `route` in process. */
function httpChat(id: string, route: (request: Request) => Promise<Response>) {
  return new Chat<ConvoUIMessage>({
    id,
    transport: new DefaultChatTransport({
      api: 'http://app.test/api/chat',
      fetch: (input, init) => route(new Request(input, init)),
    }),
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
  });
}

describe('a server route answering useChat', () => {
  it('6 toUIMessageStream: a failover turn read by readUIMessageStream shows exactly the saved content', async () => {
    const { client, id, content } = await setup();
    const stream = client.turns.stream(id, { content: '[[mock:failover]] go' });
    let message: ConvoUIMessage | undefined;
    for await (const update of readUIMessageStream<ConvoUIMessage>({ stream: toUIMessageStream(stream) }))
      message = update;
    expect(message?.id).toBe(`convo-${stream.idempotencyKey}`);
    expect(messageText(message as ConvoUIMessage)).toBe(content(message?.metadata?.convo?.turnId));
  });

  it('6 toUIMessageStream behind createUIMessageStreamResponse drives the default HTTP transport', async () => {
    const { client, id, content } = await setup();
    const chat = httpChat(id, async (request) => {
      const { messages } = (await request.json()) as { messages: ConvoUIMessage[] };
      const prompt = messages.at(-1)?.parts.find((part) => part.type === 'text');
      const turn = client.turns.stream(id, { content: prompt?.type === 'text' ? prompt.text : '' });
      return createUIMessageStreamResponse({ stream: toUIMessageStream(turn) });
    });
    await chat.sendMessage({ text: 'hello from the browser' });
    const last = chat.messages.at(-1) as ConvoUIMessage;
    expect(chat.status).toBe('ready');
    expect(messageText(last)).toBe(content(last.metadata?.convo?.turnId));
  });

  it('2.6 ConvoChatTransport on the server: a tool approval answered in the browser continues the message', async () => {
    const { client, id, content } = await setup();
    const transport = new ConvoChatTransport({ client });
    const chat = httpChat(id, async (request) => {
      const body = (await request.json()) as {
        id: string;
        messages: ConvoUIMessage[];
        trigger: 'submit-message' | 'regenerate-message';
        messageId?: string;
      };
      const stream = await transport.sendMessages({
        chatId: body.id,
        messages: body.messages,
        trigger: body.trigger,
        messageId: body.messageId,
        abortSignal: request.signal,
      });
      return createUIMessageStreamResponse({ stream });
    });
    await chat.sendMessage({ text: '[[mock:tool_approval]] look it up' });
    const last = () => chat.messages.at(-1) as ConvoUIMessage;
    const asking = last().parts.find((part) => part.type === 'dynamic-tool');
    if (asking?.type !== 'dynamic-tool' || asking.state !== 'approval-requested')
      throw new Error('no approval');
    await chat.addToolApprovalResponse({ id: asking.approval.id, approved: true });
    const end = Date.now() + 5_000;
    while (last().metadata?.convo?.status !== 'completed' && Date.now() < end)
      await new Promise((resolve) => setTimeout(resolve, 5));
    expect(chat.messages).toHaveLength(2);
    expect(last().parts.find((part) => part.type === 'dynamic-tool')).toMatchObject({
      state: 'output-available',
    });
    expect(messageText(last())).toBe(content(last().metadata?.convo?.turnId));
  });
});
