import { afterAll, beforeAll } from 'vitest';

/**
 * Starts a resource in `beforeAll`, stops it in `afterAll`, and returns a stand-in that forwards to it, so
 * that a suite reads `server.url` instead of declaring a `let` for its hooks to set. Using the stand-in
 * before `beforeAll` ran (while the suite is collected) throws.
 */
export function startedForSuite<T extends object>(start: () => Promise<T>, stop: (started: T) => unknown): T {
  let started: T | undefined;
  beforeAll(async () => {
    started = await start();
  });
  afterAll(async () => {
    if (started) await stop(started);
  });
  return new Proxy({} as T, {
    get(_, key) {
      if (!started) throw new Error(`${String(key)} read before beforeAll started the resource`);
      const value: unknown = Reflect.get(started, key);
      return typeof value === 'function' ? value.bind(started) : value;
    },
  });
}
