import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PausedReads } from '../../src/ai/paused.js';
import type { LiveTurn } from '../../src/ai/readable.js';
import type { ToolApproval } from '../../src/index.js';

// The reads `convo-sdk/ai` holds paused at a tool approval (`src/ai/paused.ts`), driven directly on a fake
// clock: each held until its approval's deadline, at most `max` at once, the least recently held released.

/** A held turn that records its aborts, keyed `key`. */
function turn(key: string) {
  const aborts: string[] = [];
  const live = { stream: { idempotencyKey: key, abort: () => aborts.push(key) } } as unknown as LiveTurn;
  return { live, aborts };
}

/** An approval that expires `ms` from now. */
const approval = (ms: number) => ({ expiresAt: Date.now() + ms }) as ToolApproval;

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the paused reads of the AI transport', () => {
  it('holds a read until its approval expires, then stops reading it', () => {
    const reads = new PausedReads(10);
    const a = turn('k1');
    reads.hold('chat', a.live, approval(1000));
    vi.advanceTimersByTime(999);
    expect(a.aborts).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(a.aborts).toEqual(['k1']);
    expect(reads.take('chat', 'k1')).toBeUndefined();
  });

  it("does not keep a process alive for a pending approval (the timer is unref'd)", () => {
    const timers: { hasRef: () => boolean }[] = [];
    const original = globalThis.setTimeout;
    const spy = vi.spyOn(globalThis, 'setTimeout').mockImplementation(((
      ...args: Parameters<typeof original>
    ) => {
      const timer = original(...args) as unknown as { hasRef: () => boolean };
      timers.push(timer);
      return timer;
    }) as typeof setTimeout);
    new PausedReads(10).hold('chat', turn('k1').live, approval(1000));
    spy.mockRestore();
    expect(timers.map((timer) => timer.hasRef())).toEqual([false]);
  });

  it('holds a read where a timer is a number without unref (as in a browser)', () => {
    const spy = vi
      .spyOn(globalThis, 'setTimeout')
      .mockImplementation((() => 1) as unknown as typeof setTimeout);
    const reads = new PausedReads(10);
    expect(() => reads.hold('chat', turn('k1').live, approval(1000))).not.toThrow();
    spy.mockRestore();
  });

  it('take hands back the read of the same key, no longer held nor timed', () => {
    const reads = new PausedReads(10);
    const a = turn('k1');
    reads.hold('chat', a.live, approval(1000));
    expect(reads.take('chat', 'k1')?.turn).toBe(a.live);
    // Taken: neither its deadline nor a release of the chat stops it any more.
    vi.advanceTimersByTime(5000);
    reads.release('chat');
    expect(a.aborts).toEqual([]);
    expect(reads.take('chat', 'k1')).toBeUndefined();
  });

  it('a read taken then held again at a later approval waits for the later deadline only', () => {
    const reads = new PausedReads(10);
    const a = turn('k1');
    reads.hold('chat', a.live, approval(1000));
    vi.advanceTimersByTime(500);
    reads.take('chat', 'k1');
    reads.hold('chat', a.live, approval(2000));
    vi.advanceTimersByTime(1000);
    expect(a.aborts).toEqual([]);
    vi.advanceTimersByTime(1000);
    expect(a.aborts).toEqual(['k1']);
  });

  it("take with another turn's key releases the chat's held read", () => {
    const reads = new PausedReads(10);
    const a = turn('k1');
    reads.hold('chat', a.live, approval(1000));
    expect(reads.take('chat', 'k2')).toBeUndefined();
    expect(a.aborts).toEqual(['k1']);
    expect(reads.take('chat', 'k1')).toBeUndefined();
    expect(reads.take('other', 'k1')).toBeUndefined();
  });

  it("holding a chat's next read releases its previous one, whose deadline then stops nothing", () => {
    const reads = new PausedReads(10);
    const a = turn('k1');
    const b = turn('k2');
    reads.hold('chat', a.live, approval(1000));
    reads.hold('chat', b.live, approval(3000));
    expect(a.aborts).toEqual(['k1']);
    vi.advanceTimersByTime(1000);
    expect(b.aborts).toEqual([]);
    expect(reads.take('chat', 'k2')?.turn).toBe(b.live);
  });

  it('holds at most max reads: one more releases the least recently held, and only it', () => {
    const reads = new PausedReads(2);
    const [a, b, c, d] = ['k1', 'k2', 'k3', 'k4'].map(turn) as [
      ReturnType<typeof turn>,
      ReturnType<typeof turn>,
      ReturnType<typeof turn>,
      ReturnType<typeof turn>,
    ];
    reads.hold('A', a.live, approval(1000));
    reads.hold('B', b.live, approval(1000));
    expect([...a.aborts, ...b.aborts]).toEqual([]);
    // A held again is the most recent: C's arrival releases B.
    const a2 = turn('k1b');
    reads.hold('A', a2.live, approval(1000));
    reads.hold('C', c.live, approval(1000));
    expect(b.aborts).toEqual(['k2']);
    expect(a2.aborts).toEqual([]);
    reads.hold('D', d.live, approval(1000));
    expect(a2.aborts).toEqual(['k1b']);
    expect(reads.take('C', 'k3')?.turn).toBe(c.live);
    expect(reads.take('D', 'k4')?.turn).toBe(d.live);
  });

  it('releasing a chat that holds nothing does nothing', () => {
    const reads = new PausedReads(1);
    expect(() => reads.release('none')).not.toThrow();
  });
});
