import { beforeEach, describe, expect, it } from 'vitest';
import { LIMITS } from '../../src/contract/limits.js';
import { type ConvoMock, createManualClock, createMock, MAX_BODY_BYTES } from '../../src/mock/index.js';
import { act, auto, call, createSkill, errorDataOf, outcome, parseReply, send, turnOf } from './helpers.js';
import { actionIdOf, names, stream, streamAll } from './sse.js';

let mock: ConvoMock;
let chatId: string;
beforeEach(() => {
  mock = createMock({ tokens: [{ token: 'mock-token' }, { token: 'no-libs', scopes: ['chat:write'] }] });
  chatId = crypto.randomUUID();
});

describe('4.3, 4.4: same key, same result, nothing re-checked against today', () => {
  it('4.3: a skill attached then deleted: the same key and body -> the stored turn, not 404', async () => {
    const skill = await createSkill(mock);
    const body = auto('Hello', { attachments: { skill_ids: [skill.id] } });
    const first = turnOf(await send(mock, chatId, body, { key: 'k1' }));
    expect(outcome(await call(mock, 'DELETE', `/api/v1/skills/${skill.id}`))).toEqual([200, 'api_v1_ok']);
    const again = await send(mock, chatId, body, { key: 'k1' });
    expect(turnOf(again)).toEqual(first);
    expect(mock.runs('k1')).toBe(1);
    // A new key is a new run, checked against today's state.
    const fresh = await send(mock, chatId, body, { key: 'k2' });
    expect(outcome(fresh)).toEqual([404, 'api_v1_not_found']);
    expect(errorDataOf(fresh)).toEqual({ field: 'attachments.skill_ids', ids: [skill.id] });
  });

  it('4.4: the same on the streaming send: the replay re-delivers the stored outcome', async () => {
    const skill = await createSkill(mock);
    const body = { content: 'Hello', attachments: { skill_ids: [skill.id] } };
    const first = await streamAll(mock, chatId, body, { key: 'k1' });
    await call(mock, 'DELETE', `/api/v1/skills/${skill.id}`);
    const replay = await streamAll(mock, chatId, body, { key: 'k1' });
    expect(names(replay)).toEqual(['message.start', 'message.step', 'message.delta', 'message.completed']);
    expect(replay.at(-1)?.data).toEqual(first.at(-1)?.data);
    expect(mock.runs('k1')).toBe(1);
  });

  it('4.3: a directive past its bound on a replayed key is not re-checked either: the key is looked up first', async () => {
    const own = createMock();
    own.setModel(async function* () {
      yield { type: 'text', text: 'ran' };
    });
    const body = auto('[[mock:words n=100001]]');
    const first = turnOf(await send(own, chatId, body, { key: 'k' }));
    own.setModel(undefined);
    expect(turnOf(await send(own, chatId, body, { key: 'k' }))).toEqual(first);
    expect(outcome(await send(own, chatId, body, { key: 'k2' }))).toEqual([422, 'api_v1_validation_error']);
  });
});

describe('7.3: the synchronous send takes only auto', () => {
  for (const mode of ['plan', 'manual', 'ask', 'AUTO']) {
    it(`7.3: permission_mode ${mode} -> 409 api_v1_sync_requires_auto, nothing run`, async () => {
      const reply = await send(mock, chatId, { content: 'x', permission_mode: mode });
      expect(outcome(reply)).toEqual([409, 'api_v1_sync_requires_auto']);
      expect(mock.store.turns()).toEqual([]);
    });
  }
});

describe('3.3: an interaction is resolved once', () => {
  it('3.3: a second answer to a resolved interaction is 409 api_v1_action_not_pending, also after its lifetime', async () => {
    const clock = createManualClock();
    mock = createMock({ clock, interactionTtlMs: 1000, pingMs: 60_000 });
    const reader = await stream(mock, chatId, { content: 'q [[mock:tool_approval]] [[mock:hang]]' });
    const actionId = actionIdOf(await reader.until('message.action_required'));
    const answer = { action_id: actionId, decisions: [{ tool_use_id: 'toolu_1', approved: true }] };
    expect(outcome(await act(mock, chatId, 'approve-tool', answer))).toEqual([200, 'api_v1_ok']);
    expect(outcome(await act(mock, chatId, 'approve-tool', answer))).toEqual([
      409,
      'api_v1_action_not_pending',
    ]);
    await clock.advance(5000);
    expect(outcome(await act(mock, chatId, 'approve-tool', answer))).toEqual([
      409,
      'api_v1_action_not_pending',
    ]);
    await act(mock, chatId, 'cancel', {});
    await reader.rest();
  });
});

describe('5: required_scopes', () => {
  it('5: workspace_ids and file_ids both attached without libraries:read -> required_scopes names it once', async () => {
    const reply = await send(
      mock,
      chatId,
      auto('x', { attachments: { workspace_ids: [1], file_ids: [11], skill_ids: [] } }),
      { token: 'no-libs' },
    );
    expect(outcome(reply)).toEqual([403, 'api_token_scope_not_allowed']);
    expect(errorDataOf(reply)).toEqual({ required_scopes: ['libraries:read'] });
  });
});

describe('8: a body over the old 1 MiB cap gets the code the spec names, not an invented 413', () => {
  const MIB = 1024 * 1024;

  it('7.3: content over 64,000 characters in a 2 MiB body -> 422 api_v1_content_too_long', async () => {
    const reply = await send(mock, chatId, auto('x'.repeat(2 * MIB)));
    expect(outcome(reply)).toEqual([422, 'api_v1_content_too_long']);
    const stream = await parseReply(
      await mock.handle(
        new Request(`${mock.url}/api/v1/chats/${chatId}/messages/stream`, {
          method: 'POST',
          headers: {
            authorization: 'Bearer mock-token',
            'idempotency-key': 'k',
            'content-type': 'application/json',
          },
          body: JSON.stringify({ content: '😀'.repeat(MIB) }),
        }),
      ),
    );
    expect(outcome(stream)).toEqual([422, 'api_v1_content_too_long']);
  });

  it('7.2: instructions over 12,000 characters in a 2 MiB body -> 422 prompt_text_too_long (create and update)', async () => {
    const big = 'x'.repeat(2 * MIB);
    const created = await call(mock, 'POST', '/api/v1/skills', { body: { name: 'n', instructions: big } });
    expect(outcome(created)).toEqual([422, 'prompt_text_too_long']);
    const skill = await createSkill(mock);
    const updated = await call(mock, 'PATCH', `/api/v1/skills/${skill.id}`, { body: { instructions: big } });
    expect(outcome(updated)).toEqual([422, 'prompt_text_too_long']);
  });

  it('8: the largest legal send body (every character escaped, about 781 KB) is read and runs', async () => {
    // Each content character outside the BMP written as two \uXXXX escapes: 12 bytes per character.
    const content = '\\ud83d\\ude00'.repeat(LIMITS.turnContent);
    // metadata {"k":"aaa..."} of 2048 serialized bytes, each character of its value escaped too.
    const metadata = `{"k":"${'\\u0061'.repeat(LIMITS.turnMetadataBytes - 8)}"}`;
    const body = `{"content":"${content}","permission_mode":"auto","metadata":${metadata}}`;
    const bytes = new TextEncoder().encode(body).length;
    expect(bytes).toBeGreaterThan(780_000);
    expect(bytes).toBeLessThan(MAX_BODY_BYTES / 10);
    const reply = await send(mock, chatId, body);
    expect(turnOf(reply).metadata).toEqual({ k: 'a'.repeat(LIMITS.turnMetadataBytes - 8) });
    expect(turnOf(reply).content).toBe(`Mock answer: ${'😀'.repeat(LIMITS.turnContent)}`);
  });

  it(`8: past MAX_BODY_BYTES (${MAX_BODY_BYTES} bytes, ten times the largest legal body) -> 413 api_v1_payload_too_large`, async () => {
    expect(MAX_BODY_BYTES).toBe(8 * MIB);
    const reply = await send(mock, chatId, auto('x'.repeat(MAX_BODY_BYTES)));
    expect(outcome(reply)).toEqual([413, 'api_v1_payload_too_large']);
  });
});
