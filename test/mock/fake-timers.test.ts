import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMock } from '../../src/mock/index.js';
import { stream } from './sse.js';

describe('the default clock follows vitest fake timers', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: Date.parse('2026-03-04T05:06:07.000Z') });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('6 pings and slow deltas happen when the fake time advances', async () => {
    const mock = createMock({ pingMs: 5000 });
    const reader = await stream(mock, crypto.randomUUID(), {
      content: '[[mock:slow ms=8000]] [[mock:words n=1]]',
    });
    expect((await reader.next())?.event).toBe('message.start');
    expect((await reader.next())?.event).toBe('message.step');
    const ping = reader.next();
    await vi.advanceTimersByTimeAsync(5000);
    expect(await ping).toEqual({
      event: 'ping',
      data: { ts: Date.parse('2026-03-04T05:06:12.000Z') / 1000 },
    });
    const delta = reader.next();
    await vi.advanceTimersByTimeAsync(3000);
    expect((await delta)?.data).toEqual({ text: 'word1', replace: false });
    expect((await reader.next())?.event).toBe('message.completed');
  });
});
