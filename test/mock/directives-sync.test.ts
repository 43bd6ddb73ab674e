import { beforeEach, describe, expect, it } from 'vitest';
import { ErrorDetailsSchema } from '../../src/contract/envelope.js';
import { type ConvoMock, createManualClock, createMock } from '../../src/mock/index.js';
import { auto, errorDataOf, listMessages, outcome, send, settle, turnOf } from './helpers.js';

let mock: ConvoMock;
let chatId: string;
beforeEach(() => {
  mock = createMock();
  chatId = crypto.randomUUID();
});

describe('mock-conventions directives, synchronous send', () => {
  it('default answer: "Mock answer: " + the content without directives, whitespace collapsed', async () => {
    const turn = turnOf(await send(mock, chatId, auto('  Hi [[mock:slow ms=0]]\n\tthere  ')));
    expect(turn.content).toBe('Mock answer: Hi there');
  });

  it('words n=N: the answer is N words', async () => {
    expect(turnOf(await send(mock, chatId, auto('[[mock:words n=3]] ignored'))).content).toBe(
      'word1 word2 word3',
    );
  });

  it('words n=0: no text, so usage is null (2.4)', async () => {
    const turn = turnOf(await send(mock, chatId, auto('[[mock:words n=0]]')));
    expect([turn.content, turn.usage]).toEqual(['', null]);
  });

  it('failover: the text is replaced after two deltas, so the answer starts with "(failover) "', async () => {
    const turn = turnOf(await send(mock, chatId, auto('[[mock:failover]] a b c')));
    expect(turn.content).toBe('(failover) Mock answer: a b c');
  });

  it('tool_approval in auto: the tool runs without asking, as a step with it in tool_calls', async () => {
    const turn = turnOf(await send(mock, chatId, auto('find [[mock:tool_approval]]')));
    expect(turn.status).toBe('completed');
    expect(turn.steps.map((step) => step.key)).toEqual(['reasoning', 'tool']);
    expect(turn.steps[1]?.tool_calls).toEqual([
      { tool_use_id: 'toolu_1', name: 'search', server: 'github', input: { q: 'find' } },
    ]);
    expect(turn.content).toBe('Mock answer: find');
  });

  for (const name of ['plan_approval', 'elicitation', 'auth_required']) {
    it(`${name} in the sync channel -> 502 interaction_in_auto_mode with data { chat_id, message_id }; status error`, async () => {
      const reply = await send(mock, chatId, auto(`[[mock:${name}]]`));
      expect(outcome(reply)).toEqual([502, 'interaction_in_auto_mode']);
      expect(errorDataOf(reply)).toEqual({ chat_id: chatId, message_id: 1 });
      expect(reply.body.meta.error_details).toBeUndefined();
      expect((await listMessages(mock, chatId)).map((m) => m.status)).toEqual(['error']);
    });
  }

  const errors = [
    ['upstream_error', 502, 'upstream_error', 'ids', true],
    ['turn_timeout', 504, 'turn_timeout', 'ids', false],
    ['persistence_failed', 503, 'api_v1_core_unavailable', 'code', true],
    ['outcome_unknown', 503, 'api_v1_core_unavailable', 'code', true],
    ['model_overloaded', 502, 'model_overloaded', 'ids', false],
  ] as const;
  for (const [code, status, messageCode, data, details] of errors) {
    it(`7.3 error code=${code} -> ${status} ${messageCode}${details ? ' with meta.error_details' : ''}; status error`, async () => {
      const reply = await send(mock, chatId, auto(`[[mock:error code=${code}]]`));
      expect(outcome(reply)).toEqual([status, messageCode]);
      expect(errorDataOf(reply)).toEqual(data === 'ids' ? { chat_id: chatId, message_id: 1 } : { code });
      if (details) {
        expect(ErrorDetailsSchema.parse(reply.body.meta.error_details)).toMatchObject({
          service_code: code,
          retryable: false,
        });
      } else expect(reply.body.meta.error_details).toBeUndefined();
      const [message] = await listMessages(mock, chatId);
      expect([message?.status, message?.content, message?.usage]).toEqual(['error', '', null]);
    });
  }

  it('6 upstream_error details never say retry_action "retry" beside retryable false', async () => {
    const reply = await send(mock, chatId, auto('[[mock:error code=upstream_error]]'));
    const details = ErrorDetailsSchema.parse(reply.body.meta.error_details);
    expect([details.retryable, details.retry_action]).toEqual([false, 'check_status']);
  });

  it('6/7.3 idempotency_outcome_unknown -> 409 api_v1_core_unavailable; the repeat with the same key reads the stored outcome', async () => {
    const body = auto('[[mock:error code=idempotency_outcome_unknown]] hi');
    const reply = await send(mock, chatId, body, { key: 'k' });
    expect(outcome(reply)).toEqual([409, 'api_v1_core_unavailable']);
    expect(errorDataOf(reply)).toEqual({ code: 'idempotency_outcome_unknown' });
    expect(ErrorDetailsSchema.parse(reply.body.meta.error_details)).toMatchObject({
      service_code: 'idempotency_outcome_unknown',
      retry_action: 'check_status',
    });
    const stored = turnOf(await send(mock, chatId, body, { key: 'k' }));
    expect([stored.status, stored.content]).toEqual(['completed', 'Mock answer: hi']);
    expect(mock.runs('k')).toBe(1);
  });

  it('directives act in order: an approved-in-auto tool, then an error', async () => {
    const reply = await send(mock, chatId, auto('[[mock:tool_approval]] [[mock:error code=upstream_error]]'));
    expect(outcome(reply)).toEqual([502, 'upstream_error']);
    const [message] = await listMessages(mock, chatId);
    expect(message?.steps.map((step) => step.key)).toEqual(['reasoning', 'tool']);
  });

  it('4.3 a synchronous turn is cut after 30 minutes: 504 turn_timeout with { chat_id, message_id }, no details', async () => {
    const clock = createManualClock();
    const timed = createMock({ clock });
    const pending = send(timed, chatId, auto('[[mock:hang]]'));
    await settle();
    await clock.advance(30 * 60_000 - 1);
    expect(timed.store.turns()[0]?.status).toBe('pending');
    await clock.advance(1);
    const reply = await pending;
    expect(outcome(reply)).toEqual([504, 'turn_timeout']);
    expect(errorDataOf(reply)).toEqual({ chat_id: chatId, message_id: 1 });
    expect(reply.body.meta.error_details).toBeUndefined();
  });
});
