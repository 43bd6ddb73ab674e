import { describe, expect, it } from 'vitest';
import { createMock, type FakeModel } from '../../src/mock/index.js';
import { act, auto, send, turnOf } from './helpers.js';
import { actionIdOf, stream } from './sse.js';

describe('reset()', () => {
  it('stops running turns (their streams end without a terminal event) and forgets chats, turns, keys and runs', async () => {
    const mock = createMock();
    const chatId = crypto.randomUUID();
    await send(mock, chatId, auto('a'), { key: 'k' });
    const reader = await stream(mock, chatId, { content: '[[mock:hang]]' });
    await reader.until('message.step');
    mock.reset();
    await expect(reader.rest()).rejects.toThrow(/discarded/);
    expect([mock.store.chats(), mock.store.turns(), mock.store.interactions(), mock.runs('k')]).toEqual([
      [],
      [],
      [],
      0,
    ]);
    expect(turnOf(await send(mock, chatId, auto('a'), { key: 'k' })).id).toBe(1);
  });
});

describe('the TSDoc example of FakeModel', () => {
  it('runs as written: a plan asked, answered through respond-plan, the answer back from yield', async () => {
    // Copied from the example in src/mock/model/model.ts.
    const model: FakeModel = async function* ({ content }) {
      yield { type: 'step' };
      const answer = yield {
        type: 'interaction',
        kind: 'plan_approval',
        payload: {
          plan: { title: 'Plan', context: content, steps: [{ step: 1, action: 'Look' }], notes: '' },
        },
      };
      if (answer?.kind === 'plan_approval' && answer.action === 'reject') {
        yield { type: 'text', text: 'Stopped.' };
        return;
      }
      yield { type: 'text', text: 'Done ' };
      yield { type: 'wait', ms: 10 };
      yield { type: 'text', text: 'here.' };
    };
    const mock = createMock({ model });
    const chatId = crypto.randomUUID();
    const reader = await stream(mock, chatId, { content: 'go' });
    const actionId = actionIdOf(await reader.until('message.action_required'));
    await act(mock, chatId, 'respond-plan', { action_id: actionId, action: 'approve' });
    expect((await reader.until('message.completed')).at(-1)?.data.content).toBe('Done here.');
  });
});
