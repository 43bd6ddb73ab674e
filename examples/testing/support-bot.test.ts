// An integrator's own test: the code under test uses the global fetch; msw routes it to the reference mock,
// whose fake model is scripted exactly for each case.
import { Client } from 'convo-sdk';
import { createMock, type FakeModel } from 'convo-sdk/mock';
import { mswHandlers } from 'convo-sdk/msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { answerCustomer } from './support-bot.js';

const mock = createMock();
const server = setupServer(...mswHandlers(mock));
const client = new Client({ baseUrl: mock.url, token: 'mock-token' });

beforeAll(() => server.listen());
afterEach(() => mock.reset());
afterAll(() => server.close());

/** A model that answers `text`, word by word. */
const says = (text: string): FakeModel =>
  async function* () {
    for (const word of text.split(/(?<= )/)) yield { type: 'text', text: word };
  };

describe('answerCustomer', () => {
  it('returns the answer and does not escalate a plain one', async () => {
    mock.setModel(says('Your order ships on Monday.'));
    const reply = await answerCustomer(client, crypto.randomUUID(), 'When does my order ship?');
    expect(reply).toEqual({ answer: 'Your order ships on Monday.', escalate: false });
  });

  it('escalates when the model hands over to a human', async () => {
    mock.setModel(says('Let me get a human agent for you.'));
    expect((await answerCustomer(client, crypto.randomUUID(), 'Refund?')).escalate).toBe(true);
  });

  it('rejects tools and escalates when the model wants one', async () => {
    mock.setModel(async function* () {
      const answer = yield {
        type: 'interaction',
        kind: 'tool_approval',
        payload: { tools: [{ tool_use_id: 't1', name: 'refund', server: 'billing', input: { amount: 10 } }] },
      };
      const approved = answer?.kind === 'tool_approval' && answer.decisions.every((d) => d.approved);
      yield { type: 'text', text: approved ? 'Refunded.' : 'I cannot refund that myself.' };
    });
    const reply = await answerCustomer(client, crypto.randomUUID(), 'Refund me');
    expect(reply).toEqual({ answer: 'I cannot refund that myself.', escalate: true });
  });
});
