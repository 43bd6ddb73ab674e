import { describe, expect, it } from 'vitest';
import { type ConvoUIMessage, chatMessagesToUI, messageText, toUIMessages } from '../../src/ai/index.js';
import type { Message } from '../../src/index.js';
import { mockClient } from '../support/mock-client.js';

const listed = (overrides: Partial<Message>): Message => ({
  id: 1,
  chat_id: '0b0e3c1a-5f7e-4c52-9d8e-1f2a3b4c5d6e',
  role: 'assistant',
  content: 'the answer',
  status: 'completed',
  usage: null,
  steps: [],
  sources: [],
  anonymization: null,
  metadata: null,
  prompt: 'the question',
  created_at: '2026-11-29T00:00:00Z',
  ...overrides,
});

describe('chatMessagesToUI: saved turns as useChat messages', () => {
  it('4.2 2.4 each turn: the prompt as the user message, the answer with its steps, tools (input, output) and text, and metadata.convo', () => {
    const usage = { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3, model: 'm', provider: 'p' };
    const step = {
      key: 's1',
      label: 'Tool',
      label_code: 'tool',
      status: 'done',
      timestamp: '2026-11-29T00:00:00Z',
      detail: { rows: 2 },
      tool_calls: [{ tool_use_id: 'toolu_1', name: 'search', server: 'github', input: { q: 'x' } }],
    };
    const thinking = {
      key: 's0',
      label: 'Think',
      label_code: 'think',
      status: 'done',
      timestamp: step.timestamp,
    };
    const messages = chatMessagesToUI([
      listed({ id: 7, usage, steps: [thinking, step] }),
      listed({ id: 8, prompt: 'then', content: '', status: 'cancelled' }),
    ]);
    expect(messages).toEqual([
      { id: 'convo-prompt-7', role: 'user', parts: [{ type: 'text', text: 'the question' }] },
      {
        id: 'convo-turn-7',
        role: 'assistant',
        metadata: { convo: { chatId: listed({}).chat_id, turnId: 7, status: 'completed', usage } },
        parts: [
          { type: 'data-convo-step', id: 's0', data: thinking },
          { type: 'data-convo-step', id: 's1', data: step },
          {
            type: 'dynamic-tool',
            toolCallId: 'toolu_1',
            toolName: 'search',
            title: 'search (github)',
            state: 'output-available',
            input: { q: 'x' },
            output: { status: 'done', detail: { rows: 2 } },
          },
          { type: 'text', text: 'the answer', state: 'done' },
        ],
      },
      { id: 'convo-prompt-8', role: 'user', parts: [{ type: 'text', text: 'then' }] },
      {
        id: 'convo-turn-8',
        role: 'assistant',
        metadata: { convo: { chatId: listed({}).chat_id, turnId: 8, status: 'cancelled', usage: null } },
        parts: [],
      },
    ]);
    expect(messageText(messages[1] as ConvoUIMessage)).toBe('the answer');
  });

  it('3.2 a running turn gives its prompt alone (the page resumes its answer), or its answer so far with pending: answer', () => {
    const running = listed({ id: 9, status: 'pending', content: 'so far' });
    expect(chatMessagesToUI([running]).map((message) => message.id)).toEqual(['convo-prompt-9']);
    const both = chatMessagesToUI([running], { pending: 'answer' });
    expect(both.map((message) => message.id)).toEqual(['convo-prompt-9', 'convo-turn-9']);
    expect(both[1]?.metadata?.convo?.status).toBe('pending');
    expect(messageText(both[1] as ConvoUIMessage)).toBe('so far');
  });

  it('a status this version does not know is left out of the metadata; a tool without a step detail has its status alone', () => {
    const step = {
      key: 's',
      label: 'l',
      label_code: 'c',
      status: 'failed',
      timestamp: '2026-11-29T00:00:00Z',
      tool_calls: [{ tool_use_id: 't', name: 'n', server: 's', input: null }],
    };
    const [, answer] = chatMessagesToUI([listed({ status: 'archived', steps: [step] })]);
    expect(answer?.metadata?.convo).not.toHaveProperty('status');
    expect(answer?.parts[1]).toMatchObject({ output: { status: 'failed' } });
    expect(answer?.parts[1]).not.toHaveProperty('output.detail');
  });

  it('3.2 every status of the contract is kept in the metadata', () => {
    for (const status of ['completed', 'cancelled', 'error'] as const)
      expect(chatMessagesToUI([listed({ status })])[1]?.metadata?.convo?.status).toBe(status);
  });
});

describe('toUIMessages', () => {
  it('4.2 reads every page of the listing, 200 turns a page, with the request options', async () => {
    const { mock, client } = mockClient();
    const { id } = await client.chats.create({});
    for (let n = 0; n < 3; n++) await client.turns.send(id, { content: `question ${n}` });
    const seen: string[] = [];
    const messages = await toUIMessages(client, id, {
      request: { hooks: { beforeRequest: [({ request }) => void seen.push(request.url)] } },
    });
    expect(messages.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
      'assistant',
    ]);
    expect(messages.filter((message) => message.role === 'assistant').map(messageText)).toEqual(
      mock.store.turns().map((turn) => turn.content),
    );
    expect(seen).toEqual([expect.stringMatching(/\/messages\?(.*&)?size=200/)]);
  });
});
