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

  it('puts back the seeded model: after setModel and reset, the next turn follows the directives of mock-conventions.md', async () => {
    const mock = createMock();
    const chatId = crypto.randomUUID();
    const custom: FakeModel = async function* () {
      yield { type: 'text', text: 'custom' };
    };
    mock.setModel(custom);
    expect(turnOf(await send(mock, chatId, auto('[[mock:words n=3]]'))).content).toBe('custom');
    mock.reset();
    const content = turnOf(await send(mock, chatId, auto('[[mock:words n=3]]'))).content;
    expect(content).not.toBe('custom');
    expect(content.trim().split(/\s+/)).toHaveLength(3);
  });

  it('puts back the model createMock was given, not the directive model', async () => {
    const seeded: FakeModel = async function* () {
      yield { type: 'text', text: 'seeded' };
    };
    const mock = createMock({ model: seeded });
    mock.setModel(undefined);
    mock.reset();
    expect(turnOf(await send(mock, crypto.randomUUID(), auto('go'))).content).toBe('seeded');
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
