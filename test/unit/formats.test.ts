import { describe, expect, it } from 'vitest';
import { type Client, ResponseValidationError, ValidationError } from '../../src/index.js';
import { fakeClient } from '../support/fake-client.js';
import { type FakeFetch, fakeFetch, ok, skill } from '../support/fake-fetch.js';
import { CHAT } from '../support/sse.js';
import { surfaced } from '../support/surfaced.js';

function clientWith(fetch: FakeFetch) {
  return fakeClient(fetch, { maxRetries: 0 });
}

describe('timestamps (2.1): ISO 8601 date-times, with Z or an offset', () => {
  const accepted = [
    '2026-11-22T10:00:00Z',
    '2026-11-22T10:00:00.123Z',
    '2026-11-22T10:00:00+00:00',
    '2026-11-22T10:00:00.123456+00:00',
    '2026-11-22T12:00:00+02:00',
  ];
  for (const created_at of accepted) {
    it(`2.1 ${created_at} is accepted and kept as sent`, async () => {
      const { fetch } = fakeFetch(ok(skill({ created_at })));
      expect((await clientWith(fetch).skills.get(1)).created_at).toBe(created_at);
    });
  }

  const refused = [
    '2026-11-22',
    '2026-11-22T10:00:00',
    '2026-11-22 10:00:00Z',
    'yesterday',
    '1700000000',
    '',
  ];
  for (const created_at of refused) {
    it(`2.1 ${JSON.stringify(created_at)} is not a date-time: a ResponseValidationError at data.created_at`, async () => {
      const { fetch } = fakeFetch(ok(skill({ created_at })));
      const error = await clientWith(fetch)
        .skills.get(1)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ResponseValidationError);
      expect((error as ResponseValidationError).path).toBe('data.created_at');
    });
  }
});

describe('chat ids (4.2): a UUID, the whole string, checked before any request', () => {
  const hostile = [
    `../skills/${CHAT}`,
    `${CHAT}/../../skills`,
    `${CHAT}/messages`,
    `x${CHAT}`,
    `${CHAT}x`,
    ` ${CHAT}`,
    `${CHAT}\n`,
    `${CHAT}?size=1`,
    CHAT.replaceAll('-', ''),
    '',
  ];
  const calls: Array<[string, (client: Client, id: string) => unknown]> = [
    ['chats.get', (c, id) => c.chats.get(id)],
    ['chats.update', (c, id) => c.chats.update(id, { name: 'x' })],
    ['chats.delete', (c, id) => c.chats.delete(id)],
    ['chats.messages', (c, id) => c.chats.messages(id)],
    ['turns.send', (c, id) => c.turns.send(id, { content: 'x' })],
    ['turns.stream', (c, id) => c.turns.stream(id, { content: 'x' })],
    ['turns.cancel', (c, id) => c.turns.cancel(id)],
    ['actions.respondPlan', (c, id) => c.actions.respondPlan(id, { action_id: 'a', action: 'approve' })],
  ];
  for (const [name, call] of calls) {
    it(`4.2 ${name}: a chat id that is not exactly a UUID is a ValidationError naming chat_id, nothing sent`, async () => {
      for (const id of hostile) {
        const { fetch, requests } = fakeFetch(new Error('no request may be sent'));
        const { threw, error } = await surfaced(() => call(clientWith(fetch), id));
        expect(threw).toBe(false);
        expect(error, JSON.stringify(id)).toBeInstanceOf(ValidationError);
        expect((error as ValidationError).field).toBe('chat_id');
        expect(requests).toHaveLength(0);
      }
    });
  }

  it('4.2 an upper-case UUID is a UUID: accepted', async () => {
    const { fetch, requests } = fakeFetch(ok({ chat_id: CHAT, cancelled: false }));
    await clientWith(fetch).turns.cancel(CHAT.toUpperCase());
    expect(requests[0]!.url).toContain(CHAT.toUpperCase());
  });

  it('2.3 a chat whose id is a UUID with anything around it is a ResponseValidationError at data.id', async () => {
    const chat = {
      id: `../${CHAT}`,
      name: null,
      is_favorite: false,
      permission_mode: 'manual',
      model_id: null,
      created_at: '2026-11-22T10:00:00+00:00',
      updated_at: '2026-11-22T10:00:00Z',
    };
    const { fetch } = fakeFetch(ok(chat));
    const error = await clientWith(fetch)
      .chats.create()
      .catch((e: unknown) => e);
    expect((error as ResponseValidationError).path).toBe('data.id');
  });
});
