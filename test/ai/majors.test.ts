import { Chat as Chat7 } from '@ai-sdk/react';
import { Chat as Chat6 } from '@ai-sdk/react-v3';
import { lastAssistantMessageIsCompleteWithApprovalResponses as approved7 } from 'ai';
import {
  lastAssistantMessageIsCompleteWithApprovalResponses as approved6,
  type ChatInit as ChatInit6,
  type UIMessage as UIMessage6,
} from 'ai-v6';
import { describe, expect, it } from 'vitest';
import { ConvoChatTransport, type ConvoUIMessage, messageText } from '../../src/ai/index.js';
import { ValidationError } from '../../src/index.js';
import { mockClient } from '../support/mock-client.js';

/** What a test needs of the AI SDK's headless `Chat`, the same in each major. */
interface HeadlessChat {
  readonly messages: ConvoUIMessage[];
  readonly status: string;
  readonly error: Error | undefined;
  sendMessage(message: { text: string }): Promise<void>;
  addToolApprovalResponse(response: { id: string; approved: boolean }): Promise<void>;
  stop(): Promise<void>;
}

/** The options `Chat` takes in every major: the chat id, the transport, when to send the approval. */
interface ChatInit {
  id: string;
  transport: ConvoChatTransport;
}

/**
 * Each AI SDK major the peer range covers, with its `@ai-sdk/react`: 7 as installed, 6 through the
 * `ai-v6` and `@ai-sdk/react-v3` aliases (the react package brings its own `ai@6`). Here `ConvoUIMessage` is
 * made of AI SDK 7's types, which 6's `Chat` does not take as its own: the cast. In an app on AI SDK 6 the
 * package's types resolve `ai` to 6; `tsconfig.ai6.json` type-checks `src/ai/` and the Chat tests that way.
 */
const MAJORS: [string, (init: ChatInit) => HeadlessChat][] = [
  [
    'ai 7 (@ai-sdk/react 4)',
    (init) =>
      new Chat7<ConvoUIMessage>({ ...init, sendAutomaticallyWhen: approved7 }) as unknown as HeadlessChat,
  ],
  [
    'ai 6 (@ai-sdk/react 3)',
    (init) =>
      new Chat6({
        ...(init as unknown as ChatInit6<UIMessage6>),
        sendAutomaticallyWhen: approved6,
      }) as unknown as HeadlessChat,
  ],
];

async function until(check: () => boolean, what: string, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe.each(MAJORS)('ConvoChatTransport under %s', (_major, makeChat) => {
  async function setup() {
    const { mock, client } = mockClient();
    const { id } = await client.chats.create({});
    const chat = makeChat({ id, transport: new ConvoChatTransport({ client }) });
    const last = () => chat.messages.at(-1) as ConvoUIMessage;
    const saved = () => mock.store.turns().find((turn) => turn.id === last().metadata?.convo?.turnId);
    return { mock, chat, last, saved };
  }

  it('6 text: the text parts joined are the saved content', async () => {
    const { chat, last, saved } = await setup();
    await chat.sendMessage({ text: '[[mock:words n=6]] hello' });
    expect(chat.status).toBe('ready');
    expect(last().role).toBe('assistant');
    expect(saved()?.status).toBe('completed');
    expect(messageText(last())).toBe(saved()?.content);
  });

  it('2.6 tool approval: addToolApprovalResponse continues the same assistant message to the end', async () => {
    const { chat, last, saved } = await setup();
    await chat.sendMessage({ text: '[[mock:tool_approval]] find the report' });
    const asking = last().parts.find((part) => part.type === 'dynamic-tool');
    if (asking?.type !== 'dynamic-tool' || asking.state !== 'approval-requested')
      throw new Error('no approval');
    const messageId = last().id;
    await chat.addToolApprovalResponse({ id: asking.approval.id, approved: true });
    await until(() => last().metadata?.convo?.status === 'completed', 'the turn to complete');
    await until(() => chat.status === 'ready', 'the chat to be ready');
    expect(chat.messages).toHaveLength(2);
    expect(last().id).toBe(messageId);
    expect(last().parts.find((part) => part.type === 'dynamic-tool')).toMatchObject({
      state: 'output-available',
    });
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
