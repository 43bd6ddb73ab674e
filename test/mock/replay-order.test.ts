import { describe, expect, it } from 'vitest';
import type { TurnRecord } from '../../src/mock/state/records.js';
import { replayEvents } from '../../src/mock/turns/outcomes.js';

// The mock's re-delivery of a key (4.4) rebuilds a finished turn as a stream in the order of `REPLAY`'s rows
// (mock/turns/outcomes.ts): moving a row reorders the stream, and a terminal event before the text drops
// the text for every reader (6 rule 1: nothing follows the terminal event). This pins the order.
const turn = (changes: Partial<TurnRecord> = {}): TurnRecord => ({
  id: 7,
  chat_id: '3fa85f64-5717-4562-b3fc-2c963f66afa6',
  role: 'assistant',
  content: 'Hello there.',
  prompt: 'Hi',
  status: 'completed',
  usage: null,
  steps: [
    {
      key: 'k',
      label: 'Thinking',
      label_code: 'thinking',
      status: 'done',
      timestamp: '2026-01-01T00:00:00Z',
    },
  ],
  sources: [],
  anonymization: null,
  metadata: null,
  created_at: '2026-01-01T00:00:00Z',
  error: null,
  credential_id: 1,
  key: 'key-1',
  channel: 'stream',
  permission_mode: 'manual',
  model_id: 1,
  request_id: '0b6c7a39-7f0b-4d8e-9a3e-5f2d1c4b8a71',
  ...changes,
});
const names = (record: TurnRecord) => replayEvents(record, crypto.randomUUID()).map(({ event }) => event);

describe('4.4, 6: a re-delivered turn, in the order REPLAY rebuilds it', () => {
  it('message.start first, then the steps, then the text, then the one terminal event last', () => {
    expect(names(turn())).toEqual(['message.start', 'message.step', 'message.delta', 'message.completed']);
  });

  it('a cancelled turn and a failed one end with their own terminal event, after the text', () => {
    expect(names(turn({ status: 'cancelled' }))).toEqual([
      'message.start',
      'message.step',
      'message.delta',
      'message.cancelled',
    ]);
    const error = { code: 'upstream_error', message: 'failed', retryable: false };
    expect(names(turn({ status: 'error', error }))).toEqual([
      'message.start',
      'message.step',
      'message.delta',
      'message.error',
    ]);
  });

  it('no steps and no text: the start, then the terminal event', () => {
    expect(names(turn({ steps: [], content: '' }))).toEqual(['message.start', 'message.completed']);
  });
});
