import { describe, expect, it } from 'vitest';
import { ConvoChatTransport, type ConvoUIMessage } from '../../src/ai/index.js';
import { Client, ValidationError } from '../../src/index.js';
import { createMock } from '../../src/mock/index.js';

/** What `sendMessages` does with `messages` a browser posted: the error, and whether anything was sent. */
async function send(messages: unknown) {
  const mock = createMock();
  let requests = 0;
  const client = new Client({
    baseUrl: mock.url,
    token: 'mock-token',
    fetch: (input, init) => {
      requests++;
      return mock.fetch(input, init);
    },
  });
  const transport = new ConvoChatTransport({ client });
  const error = await transport
    .sendMessages({
      trigger: 'submit-message',
      chatId: '00000000-0000-4000-8000-000000000001',
      messageId: undefined,
      messages: messages as ConvoUIMessage[],
      abortSignal: undefined,
    })
    .then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
  return { error, requests };
}

const asked = {
  id: 'a1',
  role: 'assistant',
  metadata: { convo: { idempotencyKey: 'k' } },
  parts: [
    {
      type: 'dynamic-tool',
      toolName: 'search',
      toolCallId: 'toolu_1',
      state: 'approval-responded',
      input: {},
      callProviderMetadata: { convo: { actionId: 'act' } },
    },
  ],
};
const user = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'hi' }] };

describe('messages a browser posts to the transport', () => {
  it.each([
    ['a null part', [{ ...user, parts: [null] }], 'messages[0].parts[0]'],
    ['a part whose type is not a string', [{ ...user, parts: [{ type: 7 }] }], 'messages[0].parts[0].type'],
    ['an approval-responded part without approval', [user, asked], 'messages[1].parts[0].approval.approved'],
    ['a text part without text', [{ ...user, parts: [{ type: 'text' }] }], 'messages[0].parts[0].text'],
    ['a null message', [null], 'messages[0]'],
    ['parts that are not an array', [{ ...user, parts: 'hi' }], 'messages[0].parts'],
    ['no messages', [], 'messages'],
  ])('%s fails with a ValidationError naming the field, nothing sent', async (_, messages, field) => {
    const { error, requests } = await send(messages);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).field).toBe(field);
    expect(requests).toBe(0);
  });
});
