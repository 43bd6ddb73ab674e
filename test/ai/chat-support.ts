import { Chat } from '@ai-sdk/react';
import { lastAssistantMessageIsCompleteWithApprovalResponses } from 'ai';
import {
  ConvoChatTransport,
  type ConvoChatTransportOptions,
  type ConvoUIMessage,
} from '../../src/ai/index.js';
import { Client } from '../../src/index.js';
import { createMock } from '../../src/mock/index.js';

/** What a test needs of the AI SDK's headless `Chat`, the same in each major. */
export interface HeadlessChat {
  /** The messages, the last one the assistant's answer being written. */
  readonly messages: ConvoUIMessage[];
  /** `ready`, `submitted`, `streaming` or `error`. */
  readonly status: string;
  /** What the last send failed with. */
  readonly error: Error | undefined;
  /** Sends a user message and reads the answer. */
  sendMessage(message: { text: string }): Promise<void>;
  /** Answers a tool approval of the last message. */
  addToolApprovalResponse(response: { id: string; approved: boolean }): void | PromiseLike<void>;
  /** Stops the answer being read. */
  stop(): Promise<void>;
}

/** The options `Chat` takes in every major that a test gives: the chat id and the transport. */
export interface ChatInit {
  /** The service's chat id. */
  id: string;
  /** The transport under test. */
  transport: ConvoChatTransport;
}

/** The installed AI SDK's `Chat` (7; 6 under `tsconfig.ai6.json`), sending an approval's answer by itself. */
export const installedChat = (init: ChatInit) =>
  new Chat<ConvoUIMessage>({
    ...init,
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
  });

/**
 * A mock, a client on it, a chat of the service, and a `Chat` of `makeChat` over the transport; `sends` and
 * `bodies` are the streaming sends' keys and bodies.
 */
export async function setupChat<C extends HeadlessChat>(
  makeChat: (init: ChatInit) => C,
  options: Omit<ConvoChatTransportOptions, 'client'> = {},
) {
  const mock = createMock();
  const sends: string[] = [];
  const bodies: Record<string, unknown>[] = [];
  const fetch: typeof mock.fetch = async (input, init) => {
    const request = new Request(input, init);
    if (request.url.endsWith('/messages/stream')) {
      sends.push(request.headers.get('idempotency-key') ?? '');
      bodies.push(await request.clone().json());
    }
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
  const chat = makeChat({ id, transport });
  const last = () => chat.messages.at(-1) as ConvoUIMessage;
  /** The saved turn the last message shows. */
  const saved = () => {
    const turnId = last().metadata?.convo?.turnId;
    return mock.store.turns().find((turn) => turn.id === turnId);
  };
  return { mock, client, transport, chat, last, saved, sends, bodies };
}

/** Polls `check` every few milliseconds until it holds, failing after `ms`. */
export async function until(check: () => boolean, what: string, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
