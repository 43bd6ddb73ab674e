import { createHook } from 'node:async_hooks';

/**
 * Checks that a piece of work leaves nothing behind: no timer or socket it created still keeping the event
 * loop alive, no unhandled rejection, and no hang. Resources are followed from their creation (async_hooks
 * `init`) to their end (`destroy`), so that what the test runner itself does before or around the work
 * does not blur the count; unref'd timers (undici's and node:http's shared clocks) keep nothing alive and
 * are not counted.
 */

/** The resource types a client or a mock could leave behind. */
const WATCHED = new Set(['Timeout', 'Immediate', 'TCPWRAP', 'TCPSERVERWRAP']);

/** A stack frame of vitest itself, which runs beside the work in the same process. */
const RUNNER = /node_modules[\\/](vitest|@vitest|tinypool|birpc)[\\/]/;

/**
 * How long a check may take to come true, in ms: a hang guard, long enough for a machine 10x slower or busy
 * with other work; what closes quickly still passes at once.
 */
const SETTLE_MS = 10_000;

interface Live {
  type: string;
  resource: { hasRef?: () => boolean };
  /** Where it was created: the first frame outside node's internals. */
  site: string;
}

/** The resources created since `trackResources()`, until `stop()`. */
export interface ResourceTracker {
  /** Those still alive and keeping the loop alive, by type and creation site. */
  alive(): string[];
  /** Waits until none is alive; throws the list after `ms` (10 s by default). */
  settle(ms?: number): Promise<void>;
  stop(): void;
}

/** Starts following every timer and socket created from now on. */
export function trackResources(): ResourceTracker {
  const live = new Map<number, Live>();
  const hook = createHook({
    init(id, type, _trigger, resource) {
      if (!WATCHED.has(type)) return;
      const frames = (new Error().stack ?? '').split('\n').slice(2); // past this hook's own frame
      // The tracker's own polling timers are not the work's.
      if (frames.some((frame) => frame.includes('leaks.ts'))) return;
      const site = frames.find((frame) => !/node:|async_hooks/.test(frame))?.trim() ?? 'node internals';
      // Nor are the test runner's (its reports, its RPC): created by it, not merely under it, as the work is.
      if (RUNNER.test(site)) return;
      live.set(id, { type, resource: resource as Live['resource'], site });
    },
    destroy(id) {
      live.delete(id);
    },
  });
  hook.enable();
  const alive = () =>
    [...live.values()]
      .filter(({ resource }) => (typeof resource.hasRef === 'function' ? resource.hasRef() : true))
      .map(({ type, site }) => `${type} ${site}`);
  return {
    alive,
    settle: (ms = SETTLE_MS) =>
      eventually(() => {
        const left = alive();
        return left.length === 0 ? undefined : `resources left open:\n  ${left.join('\n  ')}`;
      }, ms),
    stop: () => hook.disable(),
  };
}

/**
 * Polls `check` until it returns undefined (done) or `ms` pass (10 s by default); then throws what it last
 * returned.
 */
export async function eventually(
  check: () => string | undefined | Promise<string | undefined>,
  ms = SETTLE_MS,
) {
  const until = Date.now() + ms;
  for (;;) {
    const problem = await check();
    if (problem === undefined) return;
    if (Date.now() > until) throw new Error(problem);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Collects unhandled rejections while installed. */
export function trackUnhandled(): { readonly reasons: unknown[]; stop(): void } {
  const reasons: unknown[] = [];
  const listener = (reason: unknown) => reasons.push(reason);
  process.on('unhandledRejection', listener);
  return { reasons, stop: () => process.off('unhandledRejection', listener) };
}

/** `work`, or a rejection naming `what` if it does not settle within `ms`: a hang fails, it never blocks. */
export async function withDeadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`hang: ${what} did not settle within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
