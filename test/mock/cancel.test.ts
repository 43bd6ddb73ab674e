import { beforeEach, describe, expect, it } from 'vitest';
import { CancelResultSchema } from '../../src/contract/interactions.js';
import { type ConvoMock, createManualClock, createMock } from '../../src/mock/index.js';
import {
  act,
  auto,
  CHAT_TOKENS,
  createChat,
  gatedModel,
  listMessages,
  outcome,
  send,
  settle,
  turnOf,
} from './helpers.js';
import { actionIdOf, names, stream, streamAll } from './sse.js';

let mock: ConvoMock;
let chatId: string;
beforeEach(() => {
  mock = createMock({ tokens: CHAT_TOKENS });
  chatId = crypto.randomUUID();
});

describe('4.6 cancel the turn', () => {
  it('4.6 cancels the live turn: { chat_id, cancelled: true }; the stream ends with message.cancelled', async () => {
    const reader = await stream(mock, chatId, { content: '[[mock:hang]]' }, { key: 'k' });
    await reader.until('message.step');
    const reply = await act(mock, chatId, 'cancel', {});
    expect(reply.status).toBe(200);
    expect(CancelResultSchema.parse(reply.body.data)).toEqual({ chat_id: chatId, cancelled: true });
    const events = await reader.rest();
    expect(names(events)).toEqual(['message.cancelled']);
    expect(events[0]?.data).toMatchObject({ id: 1, chat_id: chatId, content: '', usage: null });
  });

  it('3.2 message.cancelled carries the partial content; status cancelled in the listing and in the key’s replay', async () => {
    const { model } = gatedModel();
    mock.setModel(model);
    const reader = await stream(mock, chatId, auto('x'), { key: 'k' });
    await reader.until('message.delta');
    await act(mock, chatId, 'cancel', {});
    const [cancelled] = await reader.rest();
    expect(cancelled?.event).toBe('message.cancelled');
    expect(cancelled?.data).toMatchObject({ content: 'first ', usage: { completion_tokens: 1 } });
    expect((await listMessages(mock, chatId)).map((m) => [m.status, m.content])).toEqual([
      ['cancelled', 'first '],
    ]);
    mock.setModel(undefined);
    const replay = await streamAll(mock, chatId, auto('x'), { key: 'k' });
    expect(names(replay)).toEqual(['message.start', 'message.delta', 'message.cancelled']);
    expect(replay.at(-1)).toEqual(cancelled);
    expect(turnOf(await send(mock, chatId, auto('x'), { key: 'k' })).status).toBe('cancelled');
  });

  it('4.6 idempotent: a finished turn, or a chat without turns, answers 200 { cancelled: false }', async () => {
    const chat = await createChat(mock);
    expect((await act(mock, chat.id, 'cancel', {})).body.data).toEqual({
      chat_id: chat.id,
      cancelled: false,
    });
    await send(mock, chatId, auto('done'));
    expect((await act(mock, chatId, 'cancel', {})).body.data).toEqual({ chat_id: chatId, cancelled: false });
    const reader = await stream(mock, chatId, { content: '[[mock:hang]]' });
    await reader.until('message.step');
    expect((await act(mock, chatId, 'cancel', {})).body.data).toEqual({ chat_id: chatId, cancelled: true });
    await reader.rest();
    expect((await act(mock, chatId, 'cancel', {})).body.data).toEqual({ chat_id: chatId, cancelled: false });
  });

  it('4.6 cancelling never creates a chat: an unknown or another credential’s chat -> 404 api_v1_not_found', async () => {
    const theirs = await createChat(mock, {}, 'same-user');
    expect(outcome(await act(mock, chatId, 'cancel', {}))).toEqual([404, 'api_v1_not_found']);
    expect(outcome(await act(mock, theirs.id, 'cancel', {}))).toEqual([404, 'api_v1_not_found']);
    expect(mock.store.chats().map((chat) => chat.id)).toEqual([theirs.id]);
  });

  it('4.6 with action_id: a pending interaction of this credential’s turn in this chat cancels that turn', async () => {
    const reader = await stream(mock, chatId, { content: '[[mock:tool_approval]]' });
    const required = { action_id: actionIdOf(await reader.until('message.action_required')) };
    expect(outcome(await act(mock, chatId, 'cancel', { action_id: 'act_nope' }))).toEqual([
      404,
      'api_v1_action_not_found',
    ]);
    expect(
      outcome(await act(mock, chatId, 'cancel', { action_id: required.action_id }, 'same-user')),
    ).toEqual([404, 'api_v1_not_found']);
    const reply = await act(mock, chatId, 'cancel', { action_id: required.action_id });
    expect(reply.body.data).toEqual({ chat_id: chatId, cancelled: true });
    expect(names(await reader.rest())).toEqual(['message.cancelled']);
    // The interaction is gone with its turn.
    expect(mock.store.interactions()[0]?.state).toBe('closed');
    const answer = await act(mock, chatId, 'approve-tool', {
      action_id: required.action_id,
      decisions: [{ tool_use_id: 'toolu_1', approved: true }],
    });
    expect(outcome(answer)).toEqual([409, 'api_v1_action_not_pending']);
  });

  it('4.6/7.6 idempotent with action_id: an own interaction that is resolved, expired or of a finished turn -> 200 { cancelled: false }', async () => {
    const clock = createManualClock();
    const timed = createMock({ tokens: CHAT_TOKENS, clock, interactionTtlMs: 1000 });
    // Resolved, its turn still live: the cancel reaches that turn.
    const reader = await stream(timed, chatId, { content: '[[mock:plan_approval]] [[mock:hang]]' });
    const resolved = actionIdOf(await reader.until('message.action_required'));
    await act(timed, chatId, 'respond-plan', { action_id: resolved, action: 'approve' });
    expect((await act(timed, chatId, 'cancel', { action_id: resolved })).body.data).toEqual({
      chat_id: chatId,
      cancelled: true,
    });
    expect(names(await reader.rest())).toEqual(['message.cancelled']);
    // Of a finished turn: nothing left to cancel, still 200.
    const again = await act(timed, chatId, 'cancel', { action_id: resolved });
    expect([again.status, again.body.data]).toEqual([200, { chat_id: chatId, cancelled: false }]);
    // Expired, its turn finished as if refused.
    const expiring = await stream(timed, chatId, { content: '[[mock:plan_approval]]' });
    const expired = actionIdOf(await expiring.until('message.action_required'));
    await clock.advance(1000);
    await expiring.rest();
    expect(timed.store.interactions().at(-1)?.state).toBe('expired');
    const late = await act(timed, chatId, 'cancel', { action_id: expired });
    expect([late.status, late.body.data]).toEqual([200, { chat_id: chatId, cancelled: false }]);
    // Only an unknown or foreign action_id is 404.
    expect(outcome(await act(timed, chatId, 'cancel', { action_id: 'act_nope' }))).toEqual([
      404,
      'api_v1_action_not_found',
    ]);
  });

  it('4.6 an action_id of another chat of the same credential -> 404 api_v1_action_not_found', async () => {
    const reader = await stream(mock, chatId, { content: '[[mock:plan_approval]]' });
    const required = { action_id: actionIdOf(await reader.until('message.action_required')) };
    const other = await createChat(mock);
    expect(outcome(await act(mock, other.id, 'cancel', { action_id: required.action_id }))).toEqual([
      404,
      'api_v1_action_not_found',
    ]);
    await act(mock, chatId, 'cancel', {});
    await reader.rest();
  });

  it('4.6 a synchronous turn cancelled from elsewhere answers 200 with status cancelled, not "Turn completed."', async () => {
    const pending = send(mock, chatId, auto('[[mock:hang]]'));
    await settle();
    await act(mock, chatId, 'cancel', {});
    const reply = await pending;
    const turn = turnOf(reply);
    expect([turn.status, turn.content, reply.body.message]).toEqual(['cancelled', '', 'Turn cancelled.']);
  });

  it('4.6 the body is checked: a non-string action_id -> 422; cancel needs chat:write', async () => {
    const chat = await createChat(mock);
    expect(outcome(await act(mock, chat.id, 'cancel', { action_id: 5 }))).toEqual([
      422,
      'api_v1_validation_error',
    ]);
    expect(outcome(await act(mock, chat.id, 'cancel', {}, 'reader'))).toEqual([
      403,
      'api_token_scope_not_allowed',
    ]);
  });

  it('3.4 after a cancel the chat is free for the next turn', async () => {
    const reader = await stream(mock, chatId, { content: '[[mock:hang]]' });
    await reader.until('message.step');
    await act(mock, chatId, 'cancel', {});
    await reader.rest();
    expect(turnOf(await send(mock, chatId, auto('next'))).status).toBe('completed');
  });
});
