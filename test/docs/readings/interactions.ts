import { expect } from 'vitest';
import { type ConvoMock, createManualClock } from '../../../src/mock/index.js';
import { act, call, createChat, errorDataOf, outcome } from '../../mock/helpers.js';
import { folded, names, stream } from '../../mock/sse.js';
import { fresh, newChat, type ReadingChecks } from './harness.js';

/** Streams `content` to `chat` until its `message.action_required`; the reader and that event's data. */
async function ask(mock: ConvoMock, chat: string, content: string, extra: Record<string, unknown> = {}) {
  const reader = await stream(mock, chat, { content, ...extra });
  const required = (await reader.until('message.action_required')).at(-1)?.data as {
    action_id: string;
    payload: Record<string, unknown>;
    resolution?: string;
  };
  return { reader, required };
}

const approve = (action_id: string, approved = true) => ({
  action_id,
  decisions: [{ tool_use_id: 'toolu_1', approved }],
});

/** A mock on a manual clock whose interactions live 1 s. */
function shortLived() {
  const clock = createManualClock();
  return { clock, mock: fresh({ clock, interactionTtlMs: 1000, pingMs: 60_000 }) };
}

/** The readings of the section Interactions. */
export const INTERACTION_READINGS: ReadingChecks = {
  '`action_id` format ("opaque")': async () => {
    const mock = fresh();
    const chat = newChat();
    const { reader, required } = await ask(mock, chat, '[[mock:tool_approval]]');
    await act(mock, chat, 'approve-tool', approve(required.action_id));
    await reader.rest();
    expect(required.action_id).toMatch(/^act_[0-9a-f]{32}$/);
  },

  'What an expired interaction does to its turn': async () => {
    const { clock, mock } = shortLived();
    const chat = newChat();
    const { reader, required } = await ask(mock, chat, 'q [[mock:plan_approval]]');
    await clock.advance(1000);
    const events = await reader.rest();
    expect([folded(events), mock.store.interactions()[0]?.state, required.action_id]).toEqual([
      'Plan rejected.',
      'expired',
      expect.any(String),
    ]);
  },

  "An answer at another kind's endpoint, or under another chat": async () => {
    const mock = fresh();
    const chat = newChat();
    const { reader, required } = await ask(mock, chat, '[[mock:tool_approval]]');
    const replies = [
      await act(mock, chat, 'respond-plan', { action_id: required.action_id, action: 'approve' }),
      await act(mock, newChat(), 'approve-tool', approve(required.action_id)),
    ];
    await act(mock, chat, 'approve-tool', approve(required.action_id));
    await reader.rest();
    expect(replies.map(outcome)).toEqual(Array(2).fill([404, 'api_v1_action_not_found']));
  },

  "An answer after the interaction's turn ended (cancelled, failed)": async () => {
    const { clock, mock } = shortLived();
    const chat = newChat();
    const { reader, required } = await ask(mock, chat, '[[mock:tool_approval]]');
    await act(mock, chat, 'cancel', {});
    await reader.rest();
    const closed = await act(mock, chat, 'approve-tool', approve(required.action_id));
    await clock.advance(1000);
    const later = await act(mock, chat, 'approve-tool', approve(required.action_id));
    expect([outcome(closed), outcome(later)]).toEqual([
      [409, 'api_v1_action_not_pending'],
      [404, 'api_v1_action_not_found'],
    ]);
  },

  'A second answer to a resolved interaction after its lifetime': async () => {
    const { clock, mock } = shortLived();
    const chat = newChat();
    const { reader, required } = await ask(mock, chat, '[[mock:tool_approval]]');
    await act(mock, chat, 'approve-tool', approve(required.action_id));
    await reader.rest();
    await clock.advance(5000);
    const again = await act(mock, chat, 'approve-tool', approve(required.action_id, false));
    expect(outcome(again)).toEqual([409, 'api_v1_action_not_pending']);
  },

  '`decisions` that miss a tool, name an unknown one, or decide one twice': async () => {
    const mock = fresh();
    const chat = newChat();
    const { reader, required } = await ask(mock, chat, '[[mock:tool_approval]]');
    const twice = { tool_use_id: 'toolu_1', approved: true };
    const replies = [
      await act(mock, chat, 'approve-tool', {
        action_id: required.action_id,
        decisions: [{ tool_use_id: 'toolu_9', approved: true }],
      }),
      await act(mock, chat, 'approve-tool', { action_id: required.action_id, decisions: [twice, twice] }),
    ];
    const pending = mock.store.pendingInteractions().length;
    await act(mock, chat, 'approve-tool', approve(required.action_id));
    await reader.rest();
    expect([...replies.map(outcome), pending]).toEqual([
      [422, 'api_v1_validation_error'],
      [422, 'api_v1_validation_error'],
      1,
    ]);
  },

  '`content` that fails `requested_schema`': async () => {
    const mock = fresh();
    const chat = newChat();
    const { reader, required } = await ask(mock, chat, '[[mock:elicitation]]');
    const reply = await act(mock, chat, 'respond-elicitation', {
      action_id: required.action_id,
      action: 'accept',
      content: { email: 5 },
    });
    const pending = mock.store.pendingInteractions().length;
    await act(mock, chat, 'respond-elicitation', { action_id: required.action_id, action: 'cancel' });
    await reader.rest();
    expect([(errorDataOf(reply) as Array<{ field: string }>).map((issue) => issue.field), pending]).toEqual([
      ['content.email'],
      1,
    ]);
  },

  '`content` with `decline` or `cancel`': async () => {
    const mock = fresh();
    const chat = newChat();
    const { reader, required } = await ask(mock, chat, '[[mock:elicitation]]');
    const answer = (content: unknown) => ({ action_id: required.action_id, action: 'decline', content });
    const nested = await act(mock, chat, 'respond-elicitation', answer({ a: { b: 1 } }));
    const flat = await act(mock, chat, 'respond-elicitation', answer({ email: 5, other: 'x' }));
    await reader.rest();
    expect([outcome(nested), outcome(flat)]).toEqual([
      [422, 'api_v1_validation_error'],
      [200, 'api_v1_ok'],
    ]);
  },

  'Further payload fields of `auth_required` ("not shown", 6)': async () => {
    const mock = fresh();
    const chat = newChat();
    const { reader, required } = await ask(mock, chat, '[[mock:auth_required]]');
    await act(mock, chat, 'cancel-auth', { action_id: required.action_id });
    await reader.rest();
    expect([required.payload, required.resolution]).toEqual([
      { connector_id: 2, server: 'drive', display_name: 'Drive' },
      'connect_in_ui_or_cancel',
    ]);
  },

  'A rejected plan\'s answer ("a short answer")': async () => {
    const mock = fresh();
    const chat = newChat();
    const { reader, required } = await ask(mock, chat, 'ship it [[mock:plan_approval]] [[mock:words n=50]]');
    await act(mock, chat, 'respond-plan', { action_id: required.action_id, action: 'reject' });
    expect(folded(await reader.rest())).toBe('Plan rejected.');
  },

  '`[[mock:elicitation]]` on an auto stream': async () => {
    const events = await (
      await stream(fresh(), newChat(), { content: '[[mock:elicitation]]', permission_mode: 'auto' })
    ).rest();
    expect([names(events).includes('message.action_required'), names(events).at(-1)]).toEqual([
      false,
      'message.completed',
    ]);
  },
};

/** The readings of the section Cancel. */
export const CANCEL_READINGS: ReadingChecks = {
  'Cancel with no turn running': async () => {
    const mock = fresh();
    const chat = await createChat(mock);
    const reply = await act(mock, chat.id, 'cancel', {});
    expect([reply.status, reply.body.data]).toEqual([200, { chat_id: chat.id, cancelled: false }]);
  },

  "Cancel with the `action_id` of the caller's own interaction that is resolved, expired, or of a finished turn":
    async () => {
      const mock = fresh();
      const chat = newChat();
      const { reader, required } = await ask(mock, chat, '[[mock:tool_approval]] [[mock:hang]]');
      await act(mock, chat, 'approve-tool', approve(required.action_id));
      const live = await act(mock, chat, 'cancel', { action_id: required.action_id });
      await reader.rest();
      const finished = await act(mock, chat, 'cancel', { action_id: required.action_id });
      expect([live.body.data, finished.status, finished.body.data]).toEqual([
        { chat_id: chat, cancelled: true },
        200,
        { chat_id: chat, cancelled: false },
      ]);
    },

  "Cancel with an unknown `action_id`, or another credential's": async () => {
    const mock = fresh();
    const chat = newChat();
    const { reader, required } = await ask(mock, chat, '[[mock:tool_approval]]');
    const mine = await createChat(mock, {}, 'same-user');
    const replies = [
      await act(mock, chat, 'cancel', { action_id: 'act_0000' }),
      await act(mock, mine.id, 'cancel', { action_id: required.action_id }, 'same-user'),
    ];
    await act(mock, chat, 'approve-tool', approve(required.action_id));
    await reader.rest();
    expect(replies.map(outcome)).toEqual(Array(2).fill([404, 'api_v1_action_not_found']));
  },
};

/** The CORS paragraph. */
export async function checkCors(): Promise<void> {
  const mock = fresh();
  const preflight = await mock.handle(
    new Request(`${mock.url}/api/v1/skills`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, x-app',
      },
    }),
  );
  const answer = await call(mock, 'GET', '/api/v1/skills', { headers: { origin: 'https://app.example' } });
  const header = (response: { headers: Headers }, name: string) => response.headers.get(name);
  expect([
    preflight.status,
    header(preflight, 'access-control-allow-origin'),
    header(preflight, 'access-control-max-age'),
    header(preflight, 'access-control-allow-headers'),
    header(answer, 'access-control-allow-origin'),
    header(answer, 'access-control-expose-headers'),
  ]).toEqual([204, '*', '600', 'authorization,x-app', '*', null]);
}
