import { describe, expect, it } from 'vitest';
import { trackResources } from '../support/leaks.js';

// The tracker the leak checks rely on (early-exit, the fault matrix): it must see what the work leaves,
// even when the work runs under the test runner's own frames, and nothing the work cleaned up.
describe('trackResources', () => {
  it('sees a timer the work left, at its creation site', async () => {
    const tracker = trackResources();
    const timer = setTimeout(() => {}, 60_000);
    await Promise.resolve();
    const left = tracker.alive();
    clearTimeout(timer);
    tracker.stop();
    expect(left).toEqual([expect.stringMatching(/^Timeout .*leak-tracker\.test\.ts/)]);
  });

  it('counts nothing the work cleared, nor what ran before it started', async () => {
    const before = setTimeout(() => {}, 60_000);
    const tracker = trackResources();
    clearTimeout(setTimeout(() => {}, 60_000));
    await tracker.settle();
    const left = tracker.alive();
    tracker.stop();
    clearTimeout(before);
    expect(left).toEqual([]);
  });
});
