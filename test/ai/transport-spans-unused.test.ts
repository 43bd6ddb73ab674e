import { describe, expect, it, vi } from 'vitest';
import type { ConvoUIMessage } from '../../src/ai/index.js';
import { ConvoChatTransport } from '../../src/ai/transport.js';
import { Client } from '../../src/index.js';
import { useMockServer } from '../support/mock-server.js';

// Issue 38 item 7 for the transport: with no tracer provider registered, a send and a resume make no span
// and load neither the transport's span code nor `@opentelemetry/api` (a factory runs only when imported).
// The transport is imported from its module, as a browser bundle has it: the `convo-sdk/ai` entry also holds
// the chat route, whose server spans import the API.
const loaded = vi.hoisted(() => [] as string[]);
vi.mock('@opentelemetry/api', () => {
  loaded.push('@opentelemetry/api');
  return {};
});
vi.mock('../../src/ai/transport-spans.js', () => {
  loaded.push('transport-spans');
  return {};
});
const server = useMockServer();

describe('ConvoChatTransport without a provider', () => {
  it('streams a turn and reads it again with nothing of the telemetry loaded', async () => {
    const client = new Client({ baseUrl: server.url, token: 'mock-token' });
    const { id: chatId } = await client.chats.create({ name: 'untraced' });
    const transport = new ConvoChatTransport({ client });
    const message: ConvoUIMessage = {
      id: 'u1',
      role: 'user',
      parts: [{ type: 'text', text: '[[mock:hang]]' }],
    };
    const stream = await transport.sendMessages({
      chatId,
      messages: [message],
      trigger: 'submit-message',
      messageId: undefined,
      abortSignal: undefined,
    });
    const reader = stream.getReader();
    expect((await reader.read()).value).toMatchObject({ type: 'start' });
    await reader.cancel();
    const again = await transport.reconnectToStream({ chatId });
    expect(again).toBeInstanceOf(ReadableStream);
    await again?.cancel();
    expect(loaded).toEqual([]);
  });
});
