import { afterEach, describe, expect, it, vi } from 'vitest';
import { createChatRoute } from '../../src/ai/index.js';
import { mockClient } from '../support/mock-client.js';
import { gatedClock, until } from './route-support.js';

const API = 'http://app.test/api/chat';

afterEach(() => {
  vi.useRealTimers();
});

/** A route with no bound set, its timers faked (only `setTimeout`: the mock's steps and the test's polls run). */
async function setup() {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  const gate = gatedClock();
  const { client } = mockClient({ clock: gate.clock });
  const { id } = await client.chats.create({});
  return { id, route: createChatRoute({ client, authorize: 'every-chat-to-every-caller' }) };
}

describe('createChatRoute: the default time bounds', () => {
  it('a body still arriving after 10 s (maxBodyMs by default) answers 400 naming body', async () => {
    const { route } = await setup();
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"id":'));
      },
    });
    let answered = false;
    const answer = route
      .handle(new Request(API, { method: 'POST', body, duplex: 'half' } as RequestInit))
      .finally(() => {
        answered = true;
      });
    await vi.advanceTimersByTimeAsync(9_999);
    expect(answered).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await until(() => answered, 'the body refused');
    const response = await answer;
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: { name: 'ValidationError', field: 'body', message: 'body: was not received within 10000 ms' },
    });
  });

  it('an answer still streaming after 31 minutes (maxStreamMs by default) ends on an error chunk naming it', async () => {
    const { id, route } = await setup();
    const answer = await route.handle(
      new Request(API, {
        method: 'POST',
        body: JSON.stringify({
          id,
          trigger: 'submit-message',
          messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: '[[mock:hang]] wait' }] }],
        }),
      }),
    );
    expect(answer.status).toBe(200);
    const text = answer.text();
    await vi.advanceTimersByTimeAsync(31 * 60 * 1000);
    expect(await text).toContain('maxStreamMs (1860000 ms)');
  });
});
