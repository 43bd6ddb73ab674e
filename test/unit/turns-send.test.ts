import { describe, expect, it, vi } from 'vitest';
import { ApiError, ConnectionError, TimeoutError, ValidationError } from '../../src/index.js';
import { fakeClient } from '../support/fake-client.js';
import { completedTurn, fail, fakeFetch, ok } from '../support/fake-fetch.js';

const CHAT = '3f2b1c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';
const turn = completedTurn(CHAT, {
  usage: {
    prompt_tokens: 3,
    completion_tokens: 2,
    total_tokens: 5,
    reasoning_tokens: 0,
    model: 'mock-large',
    provider: 'mock',
  },
});

function setup(...replies: Parameters<typeof fakeFetch>) {
  const faked = fakeFetch(...replies);
  const onRetry = vi.fn();
  const client = fakeClient(faked.fetch, { retryDelay: { min: 1, max: 5 }, onRetry });
  return { ...faked, client, onRetry };
}

const keys = (requests: { headers: Headers }[]) => requests.map((r) => r.headers.get('idempotency-key'));

describe('turns.send', () => {
  it('4.3 sends permission_mode auto and an Idempotency-Key, and returns the turn with that key', async () => {
    const { client, requests } = setup(ok(turn));
    const sent = await client.turns.send(CHAT, { content: 'Hi' });
    expect(requests[0]?.body).toEqual({ content: 'Hi', permission_mode: 'auto' });
    expect(requests[0]?.url).toBe(`https://api.test/api/v1/chats/${CHAT}/messages`);
    const key = requests[0]?.headers.get('idempotency-key');
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
    expect(sent.idempotencyKey).toBe(key);
    expect(sent.content).toBe('Hello.');
  });

  it('4.3 a key given by the caller is used as is', async () => {
    const { client, requests } = setup(ok(turn));
    await client.turns.send(CHAT, { content: 'Hi' }, { idempotencyKey: 'order-42' });
    expect(keys(requests)).toEqual(['order-42']);
  });

  it('4.3 each call gets its own key', async () => {
    const { client, requests } = setup(ok(turn));
    await client.turns.send(CHAT, { content: 'a' });
    await client.turns.send(CHAT, { content: 'b' });
    expect(new Set(keys(requests)).size).toBe(2);
  });

  it.each([
    ['a connection failure', new TypeError('fetch failed')],
    [
      '409 api_v1_core_unavailable idempotency_outcome_unknown',
      fail(409, 'api_v1_core_unavailable', { code: 'idempotency_outcome_unknown' }),
    ],
    [
      '503 api_v1_core_unavailable persistence_failed',
      fail(503, 'api_v1_core_unavailable', { code: 'persistence_failed' }),
    ],
  ])('7.3 %s is repeated with the same key', async (_, first) => {
    const { client, requests } = setup(first, ok(turn));
    const sent = await client.turns.send(CHAT, { content: 'Hi' });
    expect(requests).toHaveLength(2);
    expect(new Set(keys(requests)).size).toBe(1);
    expect(sent.idempotencyKey).toBe(keys(requests)[0]);
  });

  it('7.3 409 api_v1_turn_in_progress is polled with the same key until the turn settles, without using up retries', async () => {
    const busy = fail(409, 'api_v1_turn_in_progress');
    const { client, requests, onRetry } = setup(busy, busy, busy, busy, ok(turn));
    await client.turns.send(CHAT, { content: 'Hi' }, { maxRetries: 1 });
    expect(requests).toHaveLength(5);
    expect(new Set(keys(requests)).size).toBe(1);
    expect(onRetry).toHaveBeenCalledTimes(4);
  });

  it('7.3 polling stops at the call timeout: a TimeoutError with the key, the 409 as its cause', async () => {
    const { client } = setup(fail(409, 'api_v1_turn_in_progress'));
    const error = await client.turns.send(CHAT, { content: 'Hi' }, { timeout: 30 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).message).toMatch(/still ran after 30 ms: send again with the same key/);
    expect((error as TimeoutError).idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(((error as TimeoutError).cause as ApiError).code).toBe('api_v1_turn_in_progress');
  });

  it.each([
    [400, 'api_v1_idempotency_key_required'],
    [403, 'api_token_scope_not_allowed'],
    [404, 'api_v1_not_found'],
    [409, 'api_v1_chat_busy'],
    [409, 'api_v1_idempotency_conflict'],
    [409, 'api_v1_sync_requires_auto'],
    [409, 'api_v1_core_unavailable'],
    [422, 'api_v1_content_too_long'],
    [422, 'api_v1_too_many_attachments'],
    [502, 'upstream_error'],
    [502, 'interaction_in_auto_mode'],
    [503, 'api_v1_core_unavailable'],
    [504, 'turn_timeout'],
  ])('7.3 %i %s is thrown after exactly one request, carrying the key', async (status, code) => {
    // Each with the data its code has (7.3); api_v1_core_unavailable without a data.code to re-read by.
    const data =
      code === 'api_token_scope_not_allowed'
        ? { required_scopes: ['libraries:read'] }
        : code === 'api_v1_core_unavailable'
          ? null
          : { chat_id: CHAT, message_id: 7 };
    const { client, requests } = setup(fail(status, code, data));
    const error = (await client.turns.send(CHAT, { content: 'Hi' }).catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect([error.status, error.code]).toEqual([status, code]);
    expect(error.idempotencyKey).toBe(keys(requests)[0]);
    expect(requests).toHaveLength(1);
  });

  it('7.3 a 502 upstream_error is the stored outcome: not repeated even when its details say retry', async () => {
    const failed = fail(
      502,
      'upstream_error',
      { chat_id: CHAT, message_id: 7 },
      { error_details: { retry_action: 'retry' } },
    );
    const { client, requests } = setup(failed);
    await expect(client.turns.send(CHAT, { content: 'Hi' })).rejects.toBeInstanceOf(ApiError);
    expect(requests).toHaveLength(1);
  });

  it('7 a 503 outage whose request never left (retry_action retry) is repeated with the same key', async () => {
    const outage = fail(503, 'api_v1_service_unavailable', null, {
      error_details: { retry_action: 'retry' },
    });
    const { client, requests } = setup(outage, ok(turn));
    await client.turns.send(CHAT, { content: 'Hi' });
    expect(new Set(keys(requests)).size).toBe(1);
    expect(requests).toHaveLength(2);
  });

  it('a connection that never comes back fails with ConnectionError carrying the key', async () => {
    const { client, requests } = setup(new TypeError('fetch failed'));
    const error = (await client.turns
      .send(CHAT, { content: 'Hi' }, { maxRetries: 2 })
      .catch((e: unknown) => e)) as ConnectionError;
    expect(error).toBeInstanceOf(ConnectionError);
    expect(requests).toHaveLength(3);
    expect(error.idempotencyKey).toBe(keys(requests)[0]);
  });

  describe('checks before sending', () => {
    it.each([
      ['content', { content: 'x'.repeat(64_001) }, 64_000],
      ['metadata', { content: 'x', metadata: { note: 'é'.repeat(1100) } }, 2048],
    ])('8 %s past its limit -> ValidationError naming it', async (field, body, limit) => {
      const { client, requests } = setup(ok(turn));
      const error = (await client.turns.send(CHAT, body).catch((e: unknown) => e)) as ValidationError;
      expect(error).toBeInstanceOf(ValidationError);
      expect([error.field, error.limit]).toEqual([field, limit]);
      expect(requests).toHaveLength(0);
    });

    it('8 content of exactly 64,000 characters and metadata of exactly 2048 bytes are sent', async () => {
      const { client, requests } = setup(ok(turn));
      const metadata = { n: 'é'.repeat(1020) }; // {"n":"…"}: 8 bytes around 1020 two-byte characters
      expect(new TextEncoder().encode(JSON.stringify(metadata)).length).toBe(2048);
      await client.turns.send(CHAT, { content: '😀'.repeat(64_000), metadata });
      expect(requests).toHaveLength(1);
      const past = await client.turns
        .send(CHAT, { content: 'x', metadata: { n: `${metadata.n}x` } })
        .catch((e: unknown) => e);
      expect(past).toBeInstanceOf(ValidationError);
    });

    it('4.3 permission_mode manual is refused on the synchronous channel', async () => {
      const { client } = setup(ok(turn));
      const error = (await client.turns
        .send(CHAT, { content: 'x', permission_mode: 'manual' as never })
        .catch((e: unknown) => e)) as ValidationError;
      expect(error.field).toBe('permission_mode');
    });

    it('4.3 attachment ids must be integers', async () => {
      const { client } = setup(ok(turn));
      const error = (await client.turns
        .send(CHAT, { content: 'x', attachments: { file_ids: [11, '12' as never] } })
        .catch((e: unknown) => e)) as ValidationError;
      expect(error.field).toBe('attachments.file_ids.1');
    });

    it('4.2 chat_id must be a UUID', async () => {
      const { client, requests } = setup(ok(turn));
      const error = (await client.turns
        .send('not-a-uuid', { content: 'x' })
        .catch((e: unknown) => e)) as ValidationError;
      expect(error.field).toBe('chat_id');
      expect(requests).toHaveLength(0);
    });
  });
});
