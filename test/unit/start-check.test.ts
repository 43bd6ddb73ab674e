import { describe, expect, it, vi } from 'vitest';
import { StartPayloadSchema } from '../../src/contract/events.js';
import { decode } from '../../src/stream/decode.js';

const CHAT = '3f2b1c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';

/** Decodes `message.start` with `data`, noting whether the schema was asked. */
function watch(data: unknown) {
  const parse = vi.spyOn(StartPayloadSchema, 'safeParse');
  try {
    return {
      decoded: decode({ event: 'message.start', data: JSON.stringify(data) }),
      asked: parse.mock.calls.length > 0,
    };
  } finally {
    parse.mockRestore();
  }
}

/** What the schema alone makes of `data`: its payload, or undefined. */
function reference(data: unknown) {
  const result = StartPayloadSchema.safeParse(data);
  return result.success ? result.data : undefined;
}

describe('6 message.start: checked without the schema, exactly as the schema checks it', () => {
  it.each([
    ['the three members', { chat_id: CHAT, message_id: 7, request_id: 'r' }],
    ['a UUID in capitals', { chat_id: CHAT.toUpperCase(), message_id: 7, request_id: 'r' }],
    ['an empty request id', { chat_id: CHAT, message_id: 7, request_id: '' }],
    ['message_id 0 and a negative one', { chat_id: CHAT, message_id: -3, request_id: 'r' }],
    ['the largest safe integer', { chat_id: CHAT, message_id: Number.MAX_SAFE_INTEGER, request_id: 'r' }],
    [
      'members the contract does not name, kept',
      { chat_id: CHAT, message_id: 7, request_id: 'r', model: 'm' },
    ],
  ])('accepted without the schema: %s', (_, data) => {
    const { decoded, asked } = watch(data);
    expect(asked).toBe(false);
    expect(decoded).toEqual({ name: 'message.start', payload: reference(data) });
  });

  it.each([
    ['a chat id that is not a UUID', { chat_id: 'chat-1', message_id: 7, request_id: 'r' }],
    ['a UUID with a space before it', { chat_id: ` ${CHAT}`, message_id: 7, request_id: 'r' }],
    ['a UUID with more after it', { chat_id: `${CHAT}0`, message_id: 7, request_id: 'r' }],
    ['a UUID with a letter past f', { chat_id: CHAT.replace('f', 'g'), message_id: 7, request_id: 'r' }],
    ['a chat id that is a number', { chat_id: 7, message_id: 7, request_id: 'r' }],
    ['no chat id', { message_id: 7, request_id: 'r' }],
    ['a fractional message id', { chat_id: CHAT, message_id: 7.5, request_id: 'r' }],
    ['a message id past the safe integers', { chat_id: CHAT, message_id: 2 ** 53, request_id: 'r' }],
    ['a message id as a string', { chat_id: CHAT, message_id: '7', request_id: 'r' }],
    ['no message id', { chat_id: CHAT, request_id: 'r' }],
    ['a request id that is a number', { chat_id: CHAT, message_id: 7, request_id: 1 }],
    ['a request id that is null', { chat_id: CHAT, message_id: 7, request_id: null }],
    ['no request id', { chat_id: CHAT, message_id: 7 }],
    ['null', null],
    ['an array', [CHAT, 7, 'r']],
    ['a string', CHAT],
  ])('refused, then judged by the schema with its words: %s', (_, data) => {
    const { decoded, asked } = watch(data);
    expect(reference(data)).toBeUndefined();
    expect(asked).toBe(true);
    expect(decoded).toMatchObject({ name: 'off_schema', event: 'message.start', data });
  });
});
