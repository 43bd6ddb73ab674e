import { describe, expect, it } from 'vitest';
import { createManualClock, createMock } from '../../src/mock/index.js';

// `delayMs`: the request waits on the mock's clock before it is handled (what the inspector's page arms too).
const auth = { authorization: 'Bearer mock-token' };

describe('a delay fault', () => {
  it('holds the next matching request for delayMs on the mock clock, then answers as usual', async () => {
    const clock = createManualClock();
    const mock = createMock({ clock });
    mock.faults.add({ route: /^\/api\/v1\/skills$/, delayMs: 1000 });
    let status = 0;
    const reply = mock.fetch(`${mock.url}/api/v1/skills`, { headers: auth }).then((r) => {
      status = r.status;
    });
    await clock.advance(999);
    expect([status, mock.faults.list()]).toEqual([0, []]);
    await clock.advance(1);
    await reply;
    expect(status).toBe(200);
    const next = await mock.fetch(`${mock.url}/api/v1/skills`, { headers: auth });
    expect(next.status).toBe(200);
    expect(clock.pending()).toBe(0);
  });

  it('on a named route: a send is delayed, and its turn then runs', async () => {
    const clock = createManualClock();
    const mock = createMock({ clock });
    mock.faults.add({ route: 'send', delayMs: 500 });
    const chat = crypto.randomUUID();
    const sent = mock.fetch(`${mock.url}/api/v1/chats/${chat}/messages`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json', 'idempotency-key': 'k1' },
      body: JSON.stringify({ content: 'Hi [[mock:words n=2]]', permission_mode: 'auto' }),
    });
    await clock.advance(499);
    expect(mock.store.turns()).toEqual([]);
    await clock.advance(1);
    const answer = await sent;
    expect(answer.status).toBe(200);
    expect(mock.store.turns()).toHaveLength(1);
  });

  it('refuses a delay that is not a non-negative integer', () => {
    const mock = createMock();
    expect(() => mock.faults.add({ route: 'send', delayMs: -1 })).toThrow('delayMs must be');
    expect(() => mock.faults.add({ route: 'send', delayMs: 1.5 })).toThrow('delayMs must be');
  });
});
