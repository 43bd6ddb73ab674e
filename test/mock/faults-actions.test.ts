import { beforeEach, describe, expect, it } from 'vitest';
import { type ConvoMock, createMock } from '../../src/mock/index.js';
import { act, errorDataOf, outcome } from './helpers.js';
import { actionIdOf, type EventReader, names, stream } from './sse.js';

let mock: ConvoMock;
let chatId: string;
let reader: EventReader;
let actionId: string;
beforeEach(async () => {
  mock = createMock();
  chatId = crypto.randomUUID();
  reader = await stream(mock, chatId, { content: 'q [[mock:tool_approval]]' });
  actionId = actionIdOf(await reader.until('message.action_required'));
});

const approve = () =>
  act(mock, chatId, 'approve-tool', {
    action_id: actionId,
    decisions: [{ tool_use_id: 'toolu_1', approved: true }],
  });

/** Whether the tool ran in the turn that follows. */
async function toolRan(): Promise<boolean> {
  const events = await reader.rest();
  expect(events.at(-1)?.event).toBe('message.completed');
  return names(events).includes('message.step');
}

describe('7.5 faults of the answer endpoints', () => {
  it('7.5 503 api_v1_service_unavailable (retry): the decision never left; the interaction stays pending; a retry works', async () => {
    mock.faults.add({
      route: 'answer',
      respond: { status: 503, code: 'api_v1_service_unavailable', errorDetails: { retry_action: 'retry' } },
    });
    const failed = await approve();
    expect(outcome(failed)).toEqual([503, 'api_v1_service_unavailable']);
    expect(failed.body.meta.error_details).toEqual({ retry_action: 'retry' });
    expect(mock.store.pendingInteractions()).toHaveLength(1);
    expect((await approve()).status).toBe(200);
    expect(await toolRan()).toBe(true);
  });

  it('7.5 409 api_v1_action_result_unknown: rejected upstream; the interaction is closed, the turn goes on as refused', async () => {
    mock.faults.add({
      route: 'answer',
      respond: { status: 409, code: 'api_v1_action_result_unknown', data: { upstream_status: 422 } },
    });
    const failed = await approve();
    expect(outcome(failed)).toEqual([409, 'api_v1_action_result_unknown']);
    expect(errorDataOf(failed)).toEqual({ upstream_status: 422 });
    expect(outcome(await approve())).toEqual([409, 'api_v1_action_not_pending']);
    expect(await toolRan()).toBe(false);
    expect(mock.store.interactions()[0]).toMatchObject({ state: 'closed', answer: { by: 'service' } });
  });

  it('7.5 503 api_v1_action_result_unknown (check_status): the decision left and applies; the interaction is closed', async () => {
    mock.faults.add({
      route: 'answer',
      respond: {
        status: 503,
        code: 'api_v1_action_result_unknown',
        errorDetails: { retry_action: 'check_status' },
      },
    });
    expect(outcome(await approve())).toEqual([503, 'api_v1_action_result_unknown']);
    expect(outcome(await approve())).toEqual([409, 'api_v1_action_not_pending']);
    expect(await toolRan()).toBe(true);
  });

  it('7.5 503 api_v1_interaction_backend_unavailable: the interaction stays pending', async () => {
    mock.faults.add({
      route: 'answer',
      respond: { status: 503, code: 'api_v1_interaction_backend_unavailable' },
    });
    expect(outcome(await approve())).toEqual([503, 'api_v1_interaction_backend_unavailable']);
    expect(mock.store.pendingInteractions()).toHaveLength(1);
    expect((await approve()).status).toBe(200);
    expect(await toolRan()).toBe(true);
  });

  it('a dropped answer was applied: a network error, then 409 api_v1_action_not_pending', async () => {
    mock.faults.add({ route: 'answer', drop: 'before-response' });
    const request = new Request(`${mock.url}/api/v1/chats/${chatId}/actions/approve-tool`, {
      method: 'POST',
      headers: { authorization: 'Bearer mock-token', 'content-type': 'application/json' },
      body: JSON.stringify({ action_id: actionId, decisions: [{ tool_use_id: 'toolu_1', approved: true }] }),
    });
    await expect(mock.fetch(request)).rejects.toThrow('fetch failed');
    expect(outcome(await approve())).toEqual([409, 'api_v1_action_not_pending']);
    expect(await toolRan()).toBe(true);
  });
});

describe('7.6 faults of cancel', () => {
  it('7.6 502 api_v1_core_unavailable: the cancellation was not delivered, the turn keeps running; a retry cancels', async () => {
    mock.faults.add({ route: 'cancel', respond: { status: 502, code: 'api_v1_core_unavailable' } });
    expect(outcome(await act(mock, chatId, 'cancel', {}))).toEqual([502, 'api_v1_core_unavailable']);
    expect(mock.store.turns()[0]?.status).toBe('pending');
    expect(mock.store.pendingInteractions()).toHaveLength(1);
    expect((await act(mock, chatId, 'cancel', {})).body.data).toEqual({ chat_id: chatId, cancelled: true });
    expect(names(await reader.rest())).toEqual(['message.cancelled']);
  });

  it('a dropped cancel was delivered: the turn ends cancelled', async () => {
    mock.faults.add({ route: 'cancel', drop: 'before-response' });
    const request = new Request(`${mock.url}/api/v1/chats/${chatId}/actions/cancel`, {
      method: 'POST',
      headers: { authorization: 'Bearer mock-token', 'content-type': 'application/json' },
      body: '{}',
    });
    expect((await mock.handle(request)).type).toBe('error');
    expect(names(await reader.rest())).toEqual(['message.cancelled']);
  });
});
