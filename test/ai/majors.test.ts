import { Chat as Chat6 } from '@ai-sdk/react-v3';
import {
  lastAssistantMessageIsCompleteWithApprovalResponses as approved6,
  type ChatInit as ChatInit6,
  type UIMessage as UIMessage6,
} from 'ai-v6';
import { describe, expect, it } from 'vitest';
import { ConvoChatTransport, messageText } from '../../src/ai/index.js';
import { ValidationError } from '../../src/index.js';
import { mockClient } from '../support/mock-client.js';
import { type ChatInit, type HeadlessChat, installedChat, setupChat, until } from './chat-support.js';

/**
 * Each AI SDK major the peer range covers, with its `@ai-sdk/react`: 7 as installed, 6 through the
 * `ai-v6` and `@ai-sdk/react-v3` aliases (the react package brings its own `ai@6`). Here `ConvoUIMessage` is
 * made of AI SDK 7's types, which 6's `Chat` does not take as its own: the cast. In an app on AI SDK 6 the
 * package's types resolve `ai` to 6; `tsconfig.ai6.json` type-checks `src/ai/` and the Chat tests that way.
 * The Chat tests that hold in every major are here; `chat.test.ts` has the rest, under 7.
 */
const MAJORS: [string, (init: ChatInit) => HeadlessChat][] = [
  ['ai 7 (@ai-sdk/react 4)', installedChat],
  [
    'ai 6 (@ai-sdk/react 3)',
    (init) =>
      new Chat6({
        ...(init as unknown as ChatInit6<UIMessage6>),
        sendAutomaticallyWhen: approved6,
      }) as unknown as HeadlessChat,
  ],
];

describe.each(MAJORS)('ConvoChatTransport under %s', (_major, makeChat) => {
  it('6 text: the text parts joined are the saved content, and the turn id and usage are message metadata', async () => {
    const { chat, last, saved } = await setupChat(makeChat);
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

  it('2.6 tool approval: addToolApprovalResponse answers approve-tool and the same assistant message continues', async () => {
    const { chat, last, saved, sends } = await setupChat(makeChat);
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

  it("4.6 stop: the chat's stop() cancels the turn on the service", async () => {
    const { chat, last, saved } = await setupChat(makeChat);
    const sent = chat.sendMessage({ text: '[[mock:hang]]' });
    await until(() => last()?.metadata?.convo?.turnId !== undefined, 'the turn to start');
    await chat.stop();
    await sent;
    await until(() => saved()?.status === 'cancelled', 'the turn to be cancelled');
    expect(chat.status).toBe('ready');
  });

  it("4.2 a Chat without the service's chat id (the AI SDK's own) fails with a ValidationError that says what to pass, nothing sent", async () => {
    const { mock, client } = mockClient();
    const chat = makeChat({ id: 'kx3Pw9QvT2bRmNa1', transport: new ConvoChatTransport({ client }) });
    await chat.sendMessage({ text: 'hello' });
    expect(chat.status).toBe('error');
    expect(chat.error).toBeInstanceOf(ValidationError);
    expect(chat.error).toMatchObject({ field: 'chat_id' });
    expect(chat.error?.message).toContain(
      "useChat's id is the service's chat id: create a chat with client.chats.create() and pass useChat({ id: chat.id, transport })",
    );
    expect(mock.store.turns()).toHaveLength(0);
  });
});
