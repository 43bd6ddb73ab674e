import { afterEach, describe, expect, it, vi } from 'vitest';
import { toUIMessageStream } from '../../src/ai/index.js';
import { createManualClock } from '../../src/mock/index.js';
import { mockClient } from '../support/mock-client.js';

describe('the read of a mapped turn', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is closed when the turn ends: no idle watchdog is left to keep a server process alive', async () => {
    // A manual clock: the mock sets no timer. The timeouts are faked only for this read, so the count is of
    // the timers it set (its watchdog, the open's timeout) and not of whatever else the process runs.
    const { client } = mockClient({ clock: createManualClock() });
    const { id } = await client.chats.create({});
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const chunks: string[] = [];
    for await (const chunk of toUIMessageStream(client.turns.stream(id, { content: 'hello' })))
      chunks.push(chunk.type);
    await new Promise((resolve) => setImmediate(resolve));
    expect(chunks.at(-1)).toBe('finish');
    expect(vi.getTimerCount()).toBe(0);
  });
});
