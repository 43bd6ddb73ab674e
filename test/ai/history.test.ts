import { Chat } from '@ai-sdk/react';
import { describe, expect, it } from 'vitest';
import { type ConvoUIMessage, createChatRoute, messageText, toUIMessages } from '../../src/ai/index.js';
import { mockClient } from '../support/mock-client.js';
import { gatedClock, page, STEP_MS, until } from './route-support.js';

describe('toUIMessages: a reloaded page shows the conversation', () => {
  it('4.2 every saved turn, read page by page from the service', async () => {
    const { client } = mockClient();
    const { id } = await client.chats.create({});
    for (let n = 0; n < 3; n++) await client.turns.send(id, { content: `question ${n}` });
    await client.turns.send(id, { content: '[[mock:tool_approval]] look', permission_mode: 'auto' });
    const messages = await toUIMessages(client, id);
    expect(messages).toHaveLength(8);
    expect(messages.filter((message) => message.role === 'user').map(messageText)).toEqual([
      'question 0',
      'question 1',
      'question 2',
      '[[mock:tool_approval]] look',
    ]);
    const saved = [];
    for await (const turn of client.chats.messages(id)) saved.push(turn);
    expect(messages.filter((message) => message.role === 'assistant').map(messageText)).toEqual(
      saved.map((turn) => turn.content),
    );
    expect(messages[7]?.parts.find((part) => part.type === 'dynamic-tool')).toMatchObject({
      toolCallId: 'toolu_1',
      toolName: 'search',
      state: 'output-available',
    });
  });

  it('3.2 4.4 a page reloaded mid-turn: useChat({ messages }) shows the earlier turns and the prompt, the resume writes the answer once', async () => {
    const gate = gatedClock();
    const { mock, client } = mockClient({ clock: gate.clock });
    const { id } = await client.chats.create({});
    const route = createChatRoute({ client, authorize: () => true });
    const first = page(id, route.handle);
    await first.chat.sendMessage({ text: 'hello' });
    void first.chat
      .sendMessage({ text: `[[mock:slow ms=${STEP_MS}]] [[mock:words n=6]] more` })
      .catch(() => {});
    await until(() => mock.store.turns()[1]?.status === 'pending', 'the second turn running');
    first.reload();

    const history = await toUIMessages(client, id);
    expect(history.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
    const after = page(id, route.handle, (init) => new Chat<ConvoUIMessage>({ ...init, messages: history }));
    gate.release(100);
    await after.chat.resumeStream();
    expect(after.chat.error).toBeUndefined();
    const shown = after.chat.messages;
    expect(shown.map((message) => message.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(shown.map(messageText)).toEqual([
      'hello',
      mock.store.turns()[0]?.content,
      `[[mock:slow ms=${STEP_MS}]] [[mock:words n=6]] more`,
      mock.store.turns()[1]?.content,
    ]);
  });
});
