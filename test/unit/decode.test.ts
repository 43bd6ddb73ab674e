import { describe, expect, it } from 'vitest';
import { decode } from '../../src/stream/decode.js';

const raw = (event: string, data: unknown) => ({
  event,
  data: typeof data === 'string' ? data : JSON.stringify(data),
});

describe('decode: one wire event against the contract’s events table', () => {
  it('6 a known event that matches its schema is that event with its payload', () => {
    const chat_id = '3f2b1c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';
    expect(decode(raw('message.start', { chat_id, message_id: 7, request_id: 'r' }))).toEqual({
      name: 'message.start',
      payload: { chat_id, message_id: 7, request_id: 'r' },
    });
  });

  it('6 a payload off its schema is off_schema, its problem naming the nested path with dots', () => {
    const decoded = decode(raw('message.step', { steps: [{ key: 1 }] }));
    expect(decoded).toMatchObject({
      name: 'off_schema',
      event: 'message.step',
      data: { steps: [{ key: 1 }] },
    });
    expect((decoded as { problem: string }).problem).toMatch(/^steps\.0\.\w+: \S/);
  });

  it('6 a payload wrong as a whole is off_schema at (root)', () => {
    const decoded = decode(raw('message.delta', 'null'));
    expect(decoded).toMatchObject({ name: 'off_schema', event: 'message.delta', data: null });
    expect((decoded as { problem: string }).problem).toMatch(/^\(root\): \S/);
  });

  it('6 data that is not JSON is off_schema as its text; an unknown name passes through', () => {
    expect(decode(raw('message.start', '{oops'))).toEqual({
      name: 'off_schema',
      event: 'message.start',
      data: '{oops',
      problem: 'data is not JSON',
    });
    expect(decode(raw('message.future', { a: 1 }))).toEqual({
      name: 'unknown',
      event: 'message.future',
      data: { a: 1 },
    });
    expect(decode(raw('message.future', 'text'))).toEqual({
      name: 'unknown',
      event: 'message.future',
      data: 'text',
    });
  });
});
