import { describe, expect, it } from 'vitest';
import { createMock, type FakeModel, type ModelInput } from '../../src/mock/index.js';
import { auto, errorDataOf, outcome, send, turnOf } from './helpers.js';

describe('the fake model hook', () => {
  it('createMock({ model }) answers every turn with it; it receives the turn’s input, never its metadata (4.3)', async () => {
    const inputs: ModelInput[] = [];
    const model: FakeModel = async function* (input) {
      inputs.push(input);
      yield { type: 'step', step: { key: 'plan', label: 'Planning', label_code: 'plan' } };
      yield { type: 'text', text: 'Hello ' };
      yield { type: 'replace', text: 'Hi ' };
      yield { type: 'text', text: 'there' };
    };
    const mock = createMock({ model });
    const chatId = crypto.randomUUID();
    const turn = turnOf(
      await send(
        mock,
        chatId,
        auto('q', { model_id: 2, attachments: { file_ids: [11] }, metadata: { m: 1 } }),
      ),
    );
    expect(turn.content).toBe('Hi there');
    expect(turn.steps).toEqual([
      expect.objectContaining({ key: 'plan', label: 'Planning', status: 'completed' }),
    ]);
    const [input] = inputs;
    expect(input).toMatchObject({
      chat_id: chatId,
      message_id: 1,
      content: 'q',
      permission_mode: 'auto',
      channel: 'sync',
      model_id: 2,
      attachments: { workspace_ids: [], file_ids: [11], skill_ids: [], mcp_server_ids: [] },
    });
    expect(input).not.toHaveProperty('metadata');
    expect(turn.metadata).toEqual({ m: 1 });
    expect(input?.signal).toBeInstanceOf(AbortSignal);
  });

  it('setModel swaps the model for the next turns; undefined restores the directive model', async () => {
    const mock = createMock();
    mock.setModel(async function* () {
      yield { type: 'text', text: 'custom' };
    });
    expect(turnOf(await send(mock, crypto.randomUUID(), auto('x'))).content).toBe('custom');
    mock.setModel(undefined);
    expect(turnOf(await send(mock, crypto.randomUUID(), auto('x'))).content).toBe('Mock answer: x');
  });

  it('fail: the turn fails with that code; the sync answer is 502 with that message_code', async () => {
    const mock = createMock({
      model: async function* () {
        yield { type: 'text', text: 'partial ' };
        yield { type: 'fail', code: 'model_overloaded', message: 'Too busy.' };
      },
    });
    const chatId = crypto.randomUUID();
    const reply = await send(mock, chatId, auto('x'));
    expect(outcome(reply)).toEqual([502, 'model_overloaded']);
    expect(reply.body.message).toBe('Too busy.');
    expect(errorDataOf(reply)).toEqual({ chat_id: chatId, message_id: 1 });
    // 2.4: text was produced, so usage is counted even though the turn failed.
    expect(mock.store.turns()[0]).toMatchObject({
      status: 'error',
      content: 'partial ',
      usage: { completion_tokens: 1 },
    });
  });

  it('a model that throws, or yields an invalid action, fails the turn with upstream_error', async () => {
    const mock = createMock({
      model: async function* () {
        yield { type: 'text', text: 'a' };
        throw new Error('boom');
      },
    });
    const reply = await send(mock, crypto.randomUUID(), auto('x'));
    expect(outcome(reply)).toEqual([502, 'upstream_error']);
    expect(reply.body.message).toContain('boom');
    mock.setModel(async function* () {
      yield { type: 'tool', tool: { name: 'x' } as never };
    });
    expect(outcome(await send(mock, crypto.randomUUID(), auto('x')))).toEqual([502, 'upstream_error']);
  });

  it('a plain async iterable (not a generator) is a model too', async () => {
    const mock = createMock({
      model: () => ({
        async *[Symbol.asyncIterator]() {
          yield { type: 'text' as const, text: 'iterable' };
        },
      }),
    });
    expect(turnOf(await send(mock, crypto.randomUUID(), auto('x'))).content).toBe('iterable');
  });

  it('an interaction in the sync channel cuts the turn: 502 interaction_in_auto_mode', async () => {
    const mock = createMock({
      model: async function* () {
        yield { type: 'interaction', kind: 'auth_required', payload: {} };
        yield { type: 'text', text: 'never' };
      },
    });
    expect(outcome(await send(mock, crypto.randomUUID(), auto('x')))).toEqual([
      502,
      'interaction_in_auto_mode',
    ]);
  });
});
